// The account a request acts for, as a front holds it (from a session, an API token or a sync
// token) and hands it to the services. Fronts take the type from here, never from the entities.
export type { User } from '../../db/entities/index.ts';
