import { flag, text, textOf } from '../../kernel/columns';

/** The tables of feature flags and who each is enabled for (composed into the store's Database). */
export const flippers = { name: text, enabled_globally: flag };

export const flipperActors = {
  flipper_name: text,
  actor_type: textOf<'company' | 'facility'>(),
  actor_id: text,
};
