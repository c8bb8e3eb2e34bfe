#pragma once
// Which backend paints a frame and how cuda-interop presents it: the names the CLI, the panel,
// the script and the reports share, without the painter that uses them.
#include <array>
#include <optional>
#include <string>
#include <string_view>

namespace kc {

//   cuda-interop  the kernel's pixels reach the GL texture on the GPU (see Present)
//   cuda-staged   the kernel writes device memory, copied to pinned host memory, then uploaded
//                 (the tutorials' host round trip; works where interop registration fails)
//   cpu           the grid emulator runs the same thread bodies on the CPU, then uploaded
enum class Backend { CudaInterop, CudaStaged, Cpu };
inline constexpr std::array kAllBackends{Backend::CudaInterop, Backend::CudaStaged, Backend::Cpu};
std::string_view backend_name(Backend b);
std::optional<Backend> parse_backend(std::string_view name);

// How cuda-interop gets the kernel's pixels into the displayed texture:
//   pbo      the kernel writes the GL pixel buffer; glTexSubImage2D copies it into the texture
//            on the GPU (no host round trip, but a copy)
//   texture  the kernel writes CUDA memory; cudaMemcpy2DToArray copies it into the GL texture
//            (registered as an image): no GL upload
//   surface  the kernel writes CUDA memory; a copy kernel writes it into the GL texture through
//            a surface object: no GL upload
//   direct   the op's kernel writes the GL texture itself through a surface object: no copy. A
//            frame that needs the kernel's pixels in memory (direct_write_refusal()) takes the
//            surface path instead; FramePainter::route() says which way the last frame went.
enum class Present { PixelBuffer, Texture, Surface, Direct };
inline constexpr std::array kAllPresents{Present::PixelBuffer, Present::Texture, Present::Surface, Present::Direct};
std::string_view present_name(Present p);
std::optional<Present> parse_present(std::string_view name);
// "pbo, texture, surface or direct", for messages.
std::string present_choices();

// Which way a painted frame reached the texture:
//   direct       the op's kernel wrote the texture (present direct)
//   copy         the kernels wrote a linear CUDA buffer, copied into the texture on the GPU
//   gl-upload    the kernels wrote the GL pixel buffer, uploaded by glTexSubImage2D (pbo)
//   host-upload  the pixels came from host memory (cuda-staged, cpu)
enum class FrameRoute { Direct, Copy, GlUpload, HostUpload };
std::string_view route_name(FrameRoute r);

} // namespace kc
