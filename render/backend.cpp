#include "render/backend.h"

#include "gpu/named.h"

namespace kc {

std::string_view backend_name(Backend b) {
    switch (b) {
    case Backend::CudaInterop:
        return "cuda-interop";
    case Backend::CudaStaged:
        return "cuda-staged";
    case Backend::Cpu:
        return "cpu";
    }
    return "?";
}

std::optional<Backend> parse_backend(std::string_view name) { return find_by_name(name, kAllBackends, backend_name); }

std::string_view present_name(Present p) {
    switch (p) {
    case Present::PixelBuffer:
        return "pbo";
    case Present::Texture:
        return "texture";
    case Present::Surface:
        return "surface";
    }
    return "?";
}

std::optional<Present> parse_present(std::string_view name) { return find_by_name(name, kAllPresents, present_name); }

} // namespace kc
