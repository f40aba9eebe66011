#include "core/dice.h"

int ucr_dice_d(ucr_prng *rng, int sides)
{
    if (sides <= 1)
        return 1;
    return 1 + (int)ucr_prng_below(rng, (uint32_t)sides);
}

int ucr_dice_roll(ucr_prng *rng, int count, int sides)
{
    int total = 0;
    for (int i = 0; i < count; i++)
        total += ucr_dice_d(rng, sides);
    return total;
}

ucr_2d6 ucr_dice_2d6(ucr_prng *rng)
{
    ucr_2d6 r;
    r.a = ucr_dice_d(rng, 6);
    r.b = ucr_dice_d(rng, 6);
    r.sum = r.a + r.b;
    r.doubles = r.a == r.b;
    return r;
}

int ucr_dice_d10_face(ucr_prng *rng)
{
    return ucr_dice_d(rng, 10) % 10;
}

bool ucr_dice_coin(ucr_prng *rng)
{
    return ucr_dice_d(rng, 2) == 2;
}
