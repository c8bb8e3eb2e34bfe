// The operation registry's single list. Adding an operation: write ops/<name>.h with a functor
// (name, title, formula, bytes_read_per_pixel, and a __host__ __device__ per-pixel operator()),
// then add its #include and one KC_OP line below. The UI, CLI, tests and benchmarks all read
// this list. Include it once plainly (for the headers), then again with KC_OP(Functor) defined.
#ifndef KC_OP
#include "blend.h"
#include "checkerboard.h"
#include "gradient.h"
#else
KC_OP(GradientOp)
KC_OP(CheckerboardOp)
KC_OP(BlendOp)
#endif
