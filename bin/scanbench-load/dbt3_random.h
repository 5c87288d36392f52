/*
 * dbt3_random.h: the generator's random stream, private to dbt3*.c.
 *
 * Every value is a function of (seed, order index, draw number): draw k of
 * order o is output number o * DBT3_DRAWS_PER_ORDER + k of a splitmix64
 * stream keyed by the seed.  Nothing depends on what was generated before, so
 * a job can start at any order and the rows do not depend on how the work is
 * split.
 */
#ifndef DBT3_RANDOM_H
#define DBT3_RANDOM_H

#include <stdint.h>

#define DBT3_DRAWS_PER_ORDER 32 /* 1 for the order + 3 for each of 7 lines */
#define SPLITMIX_GAMMA		UINT64_C(0x9e3779b97f4a7c15)

static inline uint64_t
mix64(uint64_t z)
{
	z = (z ^ (z >> 30)) * UINT64_C(0xbf58476d1ce4e5b9);
	z = (z ^ (z >> 27)) * UINT64_C(0x94d049bb133111eb);
	return z ^ (z >> 31);
}

/* The stream key of a seed: mixed, so that nearby seeds share no outputs. */
static inline uint64_t
seed_key(uint64_t seed)
{
	return mix64(seed ^ UINT64_C(0x6c696e656974656d));
}

static inline uint64_t
draw(uint64_t key, uint64_t order, unsigned k)
{
	return mix64(key + (order * DBT3_DRAWS_PER_ORDER + k + 1) * SPLITMIX_GAMMA);
}

/*
 * Take a uniform integer in [0, n) from the top of *r and leave the rest of
 * the fraction in *r: one 64-bit draw yields several small values, each
 * consuming about log2(n) bits (fixed-point "fraction extraction").
 */
static inline uint32_t
take(uint64_t *r, uint32_t n)
{
	unsigned __int128 p = (unsigned __int128) *r * n;

	*r = (uint64_t) p;
	return (uint32_t) (p >> 64);
}

#endif							/* DBT3_RANDOM_H */
