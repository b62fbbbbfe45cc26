// Filled in by the foundation: prepares the migrated template database for API tests.
export default async function setup(): Promise<void> {}
