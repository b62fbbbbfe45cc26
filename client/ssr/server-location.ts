/**
 * The address the server renders the first screen for (client/ssr/render-home.tsx), given to
 * wouter's <Router> there and in the client's hydration of it, so both render the same route.
 */
export const SERVER_LOCATION = { ssrPath: '/', ssrSearch: '' } as const;
