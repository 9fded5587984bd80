import { Extensions, Field, Int, ObjectType, type ClassType } from 'type-graphql';
import { offsetOf, pageMeta, parsePageRequest, type PageInput, type PageMeta } from '../kernel/pagination';
import type { FieldCostHint } from './limits';

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
 * The cost hint of a field answering a page: it counts as a list of `maxPerPage` entries, fewer
 * when `perPage` is a literal (the entries field itself then counts once).
 */
export function pageCost(maxPerPage: number): { cost: FieldCostHint } {
  return { cost: { listSize: maxPerPage, sizeArgument: 'perPage', complexity: 0 } };
}

/** A page type over an item type: `{ entries, pagination }`. */
export function PageType<T extends object>(itemType: ClassType<T> | (abstract new () => T), what: string) {
  @ObjectType({ simpleResolvers: true })
  abstract class Page {
    // The field answering the page already counted every entry (pageCost).
    @Field(() => [itemType], { description: `The page's ${what}, in list order.` })
    @Extensions({ cost: { listSize: 1 } })
    entries: T[];

    @Field(() => PaginationObject)
    @Extensions({ cost: { complexity: 0 } })
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
