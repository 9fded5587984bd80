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

/** The most and the default entries of a list sliced by `first` and `offset`. */
export interface SliceLimits {
  defaultFirst: number;
  maxFirst: number;
}

/** The cost of a list sliced by `first`: that many entries, at most `maxFirst` (which it is when not given). */
export function sliceCost(limits: SliceLimits): CostHint {
  return { assumedSize: limits.maxFirst, slicingArguments: ['first'] };
}

/** The argument descriptions of a sliced list, naming its limits. */
export function sliceDescriptions(limits: SliceLimits): { first: string; offset: string } {
  return {
    first: `How many, from offset: ${limits.defaultFirst} by default; values above ${limits.maxFirst} read as ${limits.maxFirst}.`,
    offset: 'How many to pass over first (0 by default).',
  };
}

/** `first` entries of a list loaded whole, from `offset`. */
export function sliceOf<T>(all: readonly T[], request: { first: number; offset: number }): T[] {
  return all.slice(request.offset, request.offset + request.first);
}
