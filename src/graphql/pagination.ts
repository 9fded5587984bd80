import { Field, Int, ObjectType, type ClassType } from 'type-graphql';
import { Cost, type CostHint } from './cost-directives';
import { offsetOf, pageMeta, parsePageRequest, type PageInput, type PageMeta } from '../kernel/pagination';

/** will_paginate's meta in camelCase: the same numbers as REST's `meta.pagination`. */
@ObjectType('Pagination', {
  simpleResolvers: true,
  description: "Where a page sits in its list; the same numbers as REST's meta.pagination.",
})
export class PaginationObject {
  @Field(() => Int)
  currentPage: number;

  @Field(() => Int, { description: 'At least 1, also for an empty list.' })
  totalPages: number;

  @Field(() => Int)
  perPage: number;

  @Field(() => Int)
  totalEntries: number;

  @Field(() => Int, { nullable: true, description: 'Null on the first page.' })
  previousPage: number | null;

  @Field(() => Int, { nullable: true, description: 'Null on the last page (and past it).' })
  nextPage: number | null;
}

export function paginationOf(meta: PageMeta): PaginationObject {
  return {
    currentPage: meta.current_page,
    totalPages: meta.total_pages,
    perPage: meta.per_page,
    totalEntries: meta.total_entries,
    previousPage: meta.previous_page,
    nextPage: meta.next_page,
  };
}

export interface PageView<T> {
  entries: T[];
  pagination: PaginationObject;
}

/**
 * The cost of a field answering a page: its `entries` count `perPage` (at most `maxPerPage`, which
 * they are when it is not given); the page object itself weighs nothing.
 */
export function pageCost(maxPerPage: number): CostHint {
  return { weight: 0, assumedSize: maxPerPage, slicingArguments: ['perPage'], sizedFields: ['entries'] };
}

/** A page type over an item type: `{ entries, pagination }`. */
export function PageType<T extends object>(itemType: ClassType<T> | (abstract new () => T), what: string) {
  @ObjectType({ simpleResolvers: true })
  abstract class Page {
    // Sized by the field answering the page (pageCost's sizedFields).
    @Field(() => [itemType], { description: `The page's ${what}, in list order.` })
    entries: T[];

    @Field(() => PaginationObject)
    @Cost({ weight: 0 })
    pagination: PaginationObject;
  }
  return Page;
}

/**
 * One page of a list already loaded whole (an event's few documents, through a loader), with the
 * same page rules and meta as the service's SQL-paged list.
 */
export function pageOfLoaded<T>(
  all: readonly T[],
  input: PageInput,
  limits: { defaultPerPage: number; maxPerPage: number },
): PageView<T> {
  const request = parsePageRequest(input, limits);
  const start = offsetOf(request);
  return {
    entries: all.slice(start, start + request.perPage),
    pagination: paginationOf(pageMeta(all.length, request)),
  };
}
