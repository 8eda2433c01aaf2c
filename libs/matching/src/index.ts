export * from './engine/match-candidates';
export * from './match-pack/match-pack.events';
export * from './match-pack/match-pack.handlers';
export * from './match-pack/match-pack.http';
export * from './match-pack/match-pack.projection';
export * from './matching.module';
export * from './reverse/reverse-matching';
export * from './scoring/match-scoring';
