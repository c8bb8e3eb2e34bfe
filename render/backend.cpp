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
    case Present::Direct:
        return "direct";
    }
    return "?";
}

std::optional<Present> parse_present(std::string_view name) { return find_by_name(name, kAllPresents, present_name); }

std::string present_choices() {
    std::string list;
    for (std::size_t i = 0; i < kAllPresents.size(); ++i)
        list += (i == 0                         ? ""
                 : i + 1 == kAllPresents.size() ? " or "
                                                : ", ") +
                std::string(present_name(kAllPresents[i]));
    return list;
}

std::string_view route_name(FrameRoute r) {
    switch (r) {
    case FrameRoute::Direct:
        return "direct";
    case FrameRoute::Copy:
        return "copy";
    case FrameRoute::GlUpload:
        return "gl-upload";
    case FrameRoute::HostUpload:
        return "host-upload";
    }
    return "?";
}

} // namespace kc
