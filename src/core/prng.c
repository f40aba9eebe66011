#include "core/prng.h"

#include <string.h>

#define PCG_MULT 6364136223846793005ULL

static uint64_t fnv1a64(uint64_t h, const char *s)
{
    for (; *s; s++) {
        h ^= (unsigned char)*s;
        h *= 1099511628211ULL;
    }
    return h;
}

void ucr_prng_seed(ucr_prng *rng, const char *seed_text, const char *label)
{
    uint64_t h = fnv1a64(14695981039346656037ULL, seed_text ? seed_text : "");
    /* A separator no seed text can forge keeps ("ab","c") apart from ("a","bc"). */
    h = fnv1a64(h ^ 0xffu, "\x1f");
    uint64_t initstate = fnv1a64(h, label ? label : "");
    uint64_t initseq = fnv1a64(initstate ^ 0x9e3779b97f4a7c15ULL, "stream");
    ucr_prng_seed_raw(rng, initstate, initseq);
}

void ucr_prng_seed_raw(ucr_prng *rng, uint64_t initstate, uint64_t initseq)
{
    /* The reference pcg32_srandom_r sequence. */
    rng->state = 0;
    rng->inc = (initseq << 1) | 1u;
    ucr_prng_next(rng);
    rng->state += initstate;
    ucr_prng_next(rng);
}

uint32_t ucr_prng_next(ucr_prng *rng)
{
    uint64_t old = rng->state;
    rng->state = old * PCG_MULT + rng->inc;
    uint32_t xorshifted = (uint32_t)(((old >> 18) ^ old) >> 27);
    uint32_t rot = (uint32_t)(old >> 59);
    return (xorshifted >> rot) | (xorshifted << ((32 - rot) & 31));
}

uint32_t ucr_prng_below(ucr_prng *rng, uint32_t bound)
{
    /* Reject the low values that would make some results more likely
     * (pcg32_boundedrand_r). */
    uint32_t threshold = (uint32_t)(-bound) % bound;
    for (;;) {
        uint32_t r = ucr_prng_next(rng);
        if (r >= threshold)
            return r % bound;
    }
}
