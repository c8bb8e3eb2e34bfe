#pragma once
// The one table of operations. The UI's list, the CLI's --op names, the tests and the benchmarks
// all read it; entries come from ops/op_list.h.
#include <array>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>

#include "gpu/ops/op_base.h"
#include "gpu/thread_body.h"

namespace kc {

struct OpInfo {
    int index;                // position in the registry; backends dispatch on it
    std::string_view name;    // CLI name, e.g. "gradient"
    std::string_view title;   // UI label
    std::string_view formula; // shown in the panel and README
    int bytes_read_per_pixel; // for bandwidth figures
    int bytes_written_per_pixel;
    // Per-pixel ops run through paint_thread() (the user's block/grid/mapping/view apply); custom
    // ops are whole-image passes with their own kernels and a plain CPU implementation.
    bool custom;
    // The user's kernel, compiled at run time (NVRTC): the panel's block and grid apply, not the
    // mapping or view; the CUDA backends only.
    bool user_code;
    int variants; // 1, 2 (naive / tiled kernels) or 3 (matmul: and register-blocked)
    VariantNames variant_names;
    bool makes_histogram;                                   // fills OpOutputs::histogram
    void (*cpu_paint)(const OpParams&, Pixel*, OpOutputs*); // custom ops only, else nullptr
    // Custom ops only, else nullptr: the block, grid and mapping of the kernel that writes the
    // canvas (the panel's launch does not apply), and what else they launch ("" if nothing).
    LaunchConfig (*own_launch)(const OpParams&);
    std::string_view launch_note;
    double (*flops)(const OpParams&); // arithmetic per frame (0: report bandwidth only)
    unsigned inputs;                  // InputUse bits: the images it reads
    std::uint64_t params;             // bit i: it reads kParams[i] (param_limits.h)
};

// Whether the op reads parameter `name` (so the panel shows its control and presets store it).
bool uses_param(const OpInfo& op, std::string_view name);

std::span<const OpInfo> op_registry();
const OpInfo* find_op(std::string_view name);
std::string op_names(std::string_view separator = ", ");

std::string_view view_name(View v);
std::optional<View> parse_view(std::string_view name);
std::span<const View> all_views();

} // namespace kc
