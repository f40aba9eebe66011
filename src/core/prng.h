/* undercroft — the project's own pseudo-random number generator.
 *
 * PCG32 (O'Neill, "PCG: A Family of Simple Fast Space-Efficient Statistically
 * Good Algorithms for Random Number Generation", 2014): 64-bit LCG state, 32-bit
 * XSH-RR output.  Every random choice in undercroft flows from one of these,
 * seeded from the user's --seed text; never rand(), never the clock.
 */
#ifndef UCR_PRNG_H
#define UCR_PRNG_H

#include <stdint.h>

/** A PCG32 stream.  Plain value type: copy it to fork a stream. */
typedef struct {
    uint64_t state;
    uint64_t inc;   /* stream selector, always odd */
} ucr_prng;

/** Seeds @rng from @seed_text (any string; "42" and "goblin-king" alike) and
 *  @label, which names an independent stream ("superstructure", "node/A").
 *  Both are hashed with 64-bit FNV-1a, so the same text gives the same stream
 *  on every machine. */
void ucr_prng_seed(ucr_prng *rng, const char *seed_text, const char *label);

/** Seeds @rng exactly as the PCG reference pcg32_srandom_r(initstate,
 *  initseq) does; ucr_prng_seed() hashes its texts into these two. */
void ucr_prng_seed_raw(ucr_prng *rng, uint64_t initstate, uint64_t initseq);

/** Next 32 uniformly distributed bits. */
uint32_t ucr_prng_next(ucr_prng *rng);

/** Uniform integer in [0, bound), without modulo bias; @bound > 0. */
uint32_t ucr_prng_below(ucr_prng *rng, uint32_t bound);

#endif
