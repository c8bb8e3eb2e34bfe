// The operation registry's single list. Adding a per-pixel operation: write ops/<name>.h with a
// functor deriving PerPixelOp (name, title, formula, bytes_read_per_pixel, and a __host__
// __device__ per-pixel operator()), then add its #include and one KC_OP line below. Operations
// that need shared memory or barriers derive CustomOp instead (see op_base.h) and add ops/<name>.cu.
// The user's own kernel (UserKernelOp) is compiled at run time; see ../user_kernel.h.
// The UI, CLI, tests and benchmarks all read this list. Include it once plainly (for the headers),
// then again with KC_OP(Functor) defined.
#ifndef KC_OP
#include "add.h"
#include "blend.h"
#include "box_blur.h"
#include "checkerboard.h"
#include "fractal.h"
#include "gradient.h"
#include "grayscale.h"
#include "histogram.h"
#include "invert.h"
#include "matmul.h"
#include "sobel.h"
#include "threshold.h"
#include "user_kernel.h"
#else
KC_OP(GradientOp)
KC_OP(CheckerboardOp)
KC_OP(BlendOp)
KC_OP(GrayscaleOp)
KC_OP(InvertOp)
KC_OP(AddOp)
KC_OP(ThresholdOp)
KC_OP(BoxBlurOp)
KC_OP(SobelOp)
KC_OP(HistogramOp)
KC_OP(MandelbrotOp)
KC_OP(JuliaOp)
KC_OP(MatmulOp)
KC_OP(UserKernelOp)
#endif
