/**
 * Where Margin's source lives, for the rate-us page's invitation to star it. The project names no
 * repository elsewhere (package.json has none); change it here if the project moves.
 */
export const PROJECT_REPOSITORY_URL = 'https://github.com/margin/margin';
