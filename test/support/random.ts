// A seeded source of numbers for generated test data: the demo seed's mulberry32 (one copy).
export { mulberry32 } from '../../apps/cli/src/random';
