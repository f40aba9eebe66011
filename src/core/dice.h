/* undercroft — dice, as the seed texts roll them. */
#ifndef UCR_DICE_H
#define UCR_DICE_H

#include <stdbool.h>
#include "core/prng.h"

/** One roll of 2d6 with both dice kept, because seed 004 reads doubles. */
typedef struct {
    int a, b;      /* the two dice, 1..6 */
    int sum;       /* a + b */
    bool doubles;  /* a == b */
} ucr_2d6;

/** One die with @sides faces: 1..sides.  @sides >= 1. */
int ucr_dice_d(ucr_prng *rng, int sides);

/** @count dice of @sides faces, summed (NdM). */
int ucr_dice_roll(ucr_prng *rng, int count, int sides);

/** 2d6 with the doubles reported. */
ucr_2d6 ucr_dice_2d6(ucr_prng *rng);

/** A d10 read the way the seeds print it: 1..9 and 0 (the "10" face). */
int ucr_dice_d10_face(ucr_prng *rng);

/** A coin: true for heads. */
bool ucr_dice_coin(ucr_prng *rng);

#endif
