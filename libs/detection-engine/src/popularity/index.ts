export { DEFAULT_POPULARITY_PATH, POPULARITY_TIERS, PopularitySet, defaultPopularity, popularity } from './popularity';
export type { PopularityTier } from './popularity';
