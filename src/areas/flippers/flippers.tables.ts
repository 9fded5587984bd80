import { flag, text, textOf, type TablesOf } from '../../kernel/columns';

/** The tables of feature flags and who each is enabled for (composed into the store's Database). */
export const flippers = { name: text, enabled_globally: flag };

export const flipperActors = {
  flipper_name: text,
  actor_type: textOf<'company' | 'facility'>(),
  actor_id: text,
};

/** The area's tables by their SQL names: its part of the store's Database (its module hands them in). */
export const flippersTables = { flippers, flipper_actors: flipperActors };

declare module '../../store/schema' {
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type -- the tables above, in the store's Database
  interface Database extends TablesOf<typeof flippersTables> {}
}
