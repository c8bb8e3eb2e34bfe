// The operation registry's single list, and the ops' parameters. Adding a per-pixel operation:
// write ops/<name>.h with a functor deriving PerPixelOp (name, title, formula,
// bytes_read_per_pixel, `params` naming what it reads, and a __host__ __device__ per-pixel
// operator()), then add its #include and one KC_OP line below; a parameter of its own is one
// KC_PARAM line here. Operations that need shared memory or barriers derive CustomOp instead (see
// op_base.h) and add ops/<name>.cu. The user's own kernel (UserKernelOp) is compiled at run time;
// see ../user_kernel.h. The panel, CLI, script, presets, tests and benchmarks all read these lists.
// Include it once plainly (for the headers), then again with KC_OP(Functor) or KC_PARAM defined.
#if defined(KC_PARAM)
// KC_PARAM(type, field, default, ParamSpec fields...): an OpParams field (op_params.h) and its row
// of the parameter table (param_limits.h): range, panel label, help; --NAME on the command line,
// the script verb NAME, "params": {"NAME": ...} in a preset.
KC_PARAM(float, weight, 0.75f, .name = "weight", .label = "Blend weight",
         .help = "blend = round(w*A + (1-w)*B); the tutorial's 3/4 - 1/4 merge is 0.75", .lo = 0, .hi = 1)
KC_PARAM(bool, blend_integer, false, .name = "integer", .label = "Integer arithmetic",
         .help = "blend: a*W/256 + b*(256-W)/256 per channel with W = round(256*weight), each term truncated as C "
                 "integers are; at weight 0.75 it is the tutorial's a*3/4 + b/4, pixel-exact",
         .lo = 0, .hi = 1)
KC_PARAM(int, cell, 80, .name = "cell", .label = "Cell size", .help = "checkerboard cell size", .unit = "pixels",
         .lo = 1, .hi = 16384, .slider_hi = 400)
KC_PARAM(int, level, 128, .name = "level", .label = "Level", .help = "threshold: gray >= level is white", .lo = 0,
         .hi = 256)
KC_PARAM(int, radius, 2, .name = "radius", .label = "Radius", .help = "box_blur radius (window 2r+1)", .unit = "pixels",
         .lo = 0, .hi = kMaxBlurRadius)
KC_PARAM(int, variant, 0, .name = "variant", .label = "Variant",
         .help = "ops with several kernels: naive (global memory), tiled (shared memory) or, matmul only, registers "
                 "(register-blocked)",
         .lo = 0, .hi = 2, .choices = {"naive", "tiled", "registers"}, .widget = ParamWidget::OpVariants)
KC_PARAM(int, max_iter, 256, .name = "iter", .label = "Iterations", .help = "mandelbrot/julia: maximum iterations",
         .lo = 1, .hi = 100000, .slider_hi = 5000, .log_slider = true)
KC_PARAM(bool, use_double, false, .name = "double", .label = "Double precision",
         .help = "mandelbrot/julia: iterate in double. Float runs out of precision after a zoom of about 10^4: the "
                 "picture turns blocky. Double goes to about 10^13, at a cost that depends on the GPU's FP64 rate",
         .lo = 0, .hi = 1)
KC_PARAM(double, center_x, -0.5, .name = "center-x", .label = "Centre x",
         .help = "mandelbrot/julia: centre of the view (mandelbrot -0.5, julia 0 by default)", .lo = -1000, .hi = 1000,
         .widget = ParamWidget::None) // the fractals live within |c| <= 2; the mouse pans
KC_PARAM(double, center_y, 0.0, .name = "center-y", .label = "Centre y", .help = "mandelbrot/julia: centre of the view",
         .lo = -1000, .hi = 1000, .widget = ParamWidget::None)
// The field is plane units per pixel; the parameter is the zoom, 1 showing 3 units across 800 pixels.
KC_PARAM(double, scale, 3.0 / 800, .name = "zoom", .label = "Zoom",
         .help = "mandelbrot/julia: zoom (1: 3 units across 800 pixels; double runs out near 1e13)", .lo = 0.01,
         .hi = 1e15, .widget = ParamWidget::None, .reciprocal = 3.0 / 800)
KC_PARAM(float, julia_re, -0.8f, .name = "julia-re", .label = "Julia k re", .help = "julia: k, real part", .lo = -2,
         .hi = 2, .slider_lo = -1.5, .slider_hi = 1.5)
KC_PARAM(float, julia_im, 0.156f, .name = "julia-im", .label = "Julia k im", .help = "julia: k, imaginary part",
         .lo = -2, .hi = 2, .slider_lo = -1.5, .slider_hi = 1.5)
KC_PARAM(int, matmul_n, 512, .name = "matmul-n", .label = "N", .help = "matmul: C = A*B for N x N floats", .lo = 16,
         .hi = 4096, .multiple_of = 16, .log_slider = true)
#elif !defined(KC_OP)
#include "gpu/ops/add.h"
#include "gpu/ops/blend.h"
#include "gpu/ops/box_blur.h"
#include "gpu/ops/checkerboard.h"
#include "gpu/ops/fractal.h"
#include "gpu/ops/gradient.h"
#include "gpu/ops/grayscale.h"
#include "gpu/ops/histogram.h"
#include "gpu/ops/invert.h"
#include "gpu/ops/matmul.h"
#include "gpu/ops/sobel.h"
#include "gpu/ops/threshold.h"
#include "gpu/ops/user_kernel.h"
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
