#include "gpu/gpu_select.h"

#include <algorithm>
#include <cctype>
#include <charconv>

#include <fmt/format.h>

namespace kc {

namespace {

std::string lower(std::string_view text) {
    std::string out(text);
    for (char& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    return out;
}

bool starts_with_ignoring_case(std::string_view text, std::string_view prefix) {
    return lower(text).starts_with(lower(prefix));
}

// Whether `spec` names this GPU by a prefix of its name or of its UUID (with or without "GPU-").
bool matches(const GpuDescription& gpu, std::string_view spec) {
    if (starts_with_ignoring_case(gpu.name, spec) || starts_with_ignoring_case(gpu.uuid, spec)) return true;
    const std::string_view bare = std::string_view(gpu.uuid).substr(std::min<std::size_t>(4, gpu.uuid.size()));
    return starts_with_ignoring_case(gpu.uuid, "GPU-") && starts_with_ignoring_case(bare, spec);
}

std::string gpu_name(int index, const std::vector<GpuDescription>& gpus) {
    for (const GpuDescription& g : gpus)
        if (g.index == index) return fmt::format("GPU {} ({})", index, g.name);
    return fmt::format("GPU {}", index);
}

std::string gl_gpu_names(const std::vector<int>& devices, const std::vector<GpuDescription>& gpus) {
    std::string out;
    for (std::size_t i = 0; i < devices.size(); ++i) out += (i ? " and " : "") + gpu_name(devices[i], gpus);
    return out;
}

} // namespace

std::string memory_text(std::size_t bytes) {
    const double gib = double(bytes) / (1024.0 * 1024.0 * 1024.0);
    return gib >= 1.0 ? fmt::format("{:.1f} GiB", gib) : fmt::format("{} MiB", bytes / (1024 * 1024));
}

std::string describe_gpu(const GpuDescription& gpu) {
    return fmt::format("{}, {}, {}, PCI {}", gpu.name, memory_text(gpu.memory), gpu.uuid.empty() ? "no UUID" : gpu.uuid,
                       gpu.pci_bus_id.empty() ? "?" : gpu.pci_bus_id);
}

std::string gpu_lines(const std::vector<GpuDescription>& gpus) {
    std::string out;
    for (const GpuDescription& g : gpus)
        out += fmt::format("{}  GPU {}: {}", out.empty() ? "" : "\n", g.index, describe_gpu(g));
    return out;
}

GpuChoice choose_gpu(std::string_view spec, const std::vector<GpuDescription>& gpus, std::string_view no_gpu_reason) {
    if (gpus.empty()) return {std::nullopt, fmt::format("--gpu {}: no CUDA GPU here: {}", spec, no_gpu_reason)};
    const std::string list = fmt::format("the GPUs here:\n{}", gpu_lines(gpus));
    if (spec.empty()) return {std::nullopt, "--gpu needs a GPU's index, or a prefix of its name or UUID; " + list};
    if (std::all_of(spec.begin(), spec.end(), [](char c) { return std::isdigit(static_cast<unsigned char>(c)); })) {
        int index = -1;
        const auto [end, error] = std::from_chars(spec.data(), spec.data() + spec.size(), index);
        for (const GpuDescription& g : gpus)
            if (error == std::errc{} && g.index == index) return {g.index, {}};
        return {std::nullopt, fmt::format("--gpu {}: there is no CUDA device {}; {}", spec, spec, list)};
    }
    std::vector<const GpuDescription*> found;
    for (const GpuDescription& g : gpus)
        if (matches(g, spec)) found.push_back(&g);
    if (found.size() == 1) return {found[0]->index, {}};
    if (found.empty())
        return {std::nullopt,
                fmt::format("--gpu '{}' is no GPU's index, nor a prefix of its name or UUID; {}", spec, list)};
    std::vector<GpuDescription> matched;
    for (const GpuDescription* g : found) matched.push_back(*g);
    return {std::nullopt, fmt::format("--gpu '{}' matches {} GPUs; give the index or a UUID prefix:\n{}", spec,
                                      found.size(), gpu_lines(matched))};
}

GpuPairing pair_cuda_with_gl(std::optional<int> chosen, const GlGpus& gl, const std::vector<GpuDescription>& gpus) {
    if (gl.devices.empty()) {
        const std::string why = gl.why_not.empty() ? "the OpenGL context runs on no CUDA device" : gl.why_not;
        return {chosen.value_or(0), false, why};
    }
    if (!chosen) return {gl.devices.front(), true, {}};
    if (std::find(gl.devices.begin(), gl.devices.end(), *chosen) != gl.devices.end()) return {*chosen, true, {}};
    return {*chosen, false,
            fmt::format("--gpu chose {} for CUDA, but OpenGL runs on {}: interop needs both on one GPU, so frames "
                        "go through host memory (cuda-staged)",
                        gpu_name(*chosen, gpus), gl_gpu_names(gl.devices, gpus))};
}

} // namespace kc
