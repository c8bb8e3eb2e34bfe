// Present direct (the op's kernel writes the GL texture through a surface) against the surface
// copy (the kernel writes a buffer, a copy kernel writes the texture): the same texture bytes for
// every per-pixel op, mapping, pixels per thread and odd size, with the texture poisoned first.
// Skipped, with the reason, where there is no CUDA GPU or no headless EGL on it.
#include <gtest/gtest.h>

#include <cstdint>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include "gpu/registry.h"
#include "render/canvas.h"
#include "render/frame_painter.h"
#include "render/gl_context.h"
#include "render/io/source_images.h"
#include "tests/support/gpu_gl_test.h"

namespace kc {
namespace {

using test::kPoison;

using GpuDirect = test::GpuGlTest;

// The texture's bytes as GL stores them (RGBA8), whatever the canvas thinks its channels hold.
std::vector<std::uint8_t> texture_bytes(const Canvas& canvas) {
    std::vector<std::uint8_t> bytes(canvas.bytes());
    glBindTexture(GL_TEXTURE_2D, canvas.texture());
    glPixelStorei(GL_PACK_ALIGNMENT, 1);
    glGetTexImage(GL_TEXTURE_2D, 0, GL_RGBA, GL_UNSIGNED_BYTE, bytes.data());
    glBindTexture(GL_TEXTURE_2D, 0);
    return bytes;
}

Image noise(int w, int h, std::mt19937& rng) {
    Image img{w, h, std::vector<Pixel>(std::size_t(w) * h)};
    for (Pixel& p : img.pixels) p = Pixel{std::uint8_t(rng()), std::uint8_t(rng()), std::uint8_t(rng()), 255};
    return img; // opaque: no painted pixel has the poison's alpha
}

// A per-pixel job with random parameters and block; the auto grid covers every pixel.
PaintJob random_job(int op, int w, int h, Mapping mapping, int ppt, std::mt19937& rng) {
    PaintJob j;
    j.op = op;
    j.params.width = w, j.params.height = h;
    j.params.weight = std::uniform_real_distribution<float>(0.0f, 1.0f)(rng);
    j.params.cell = 1 + static_cast<int>(rng() % 97);
    j.params.level = static_cast<int>(rng() % 257);
    j.params.max_iter = 1 + static_cast<int>(rng() % 200);
    j.params.use_double = rng() % 2 == 0;
    j.params.seconds = std::uniform_real_distribution<float>(0.0f, 10.0f)(rng);
    j.params.scale = 3.0 / std::max({w, h, 8});
    j.launch.block = {1 + static_cast<int>(rng() % 64), 1 + static_cast<int>(rng() % 16), 1};
    j.launch.mapping = mapping;
    j.launch.pixels_per_thread = ppt;
    return j;
}

// Poisons the canvas texture, paints `job` through `present` and returns the texture's bytes.
std::vector<std::uint8_t> paint_through(FramePainter& painter, Present present, Canvas& canvas, const PaintJob& job,
                                        const SourceImages& sources) {
    painter.set_present(present);
    canvas.upload_from_host(std::vector<Pixel>(canvas.pixel_count(), kPoison).data());
    const auto error = painter.paint(job, canvas, &sources);
    EXPECT_EQ(error, std::nullopt) << error.value_or("");
    return texture_bytes(canvas);
}

// Every texel written (none keeps the poison's alpha), and direct's bytes are the copy's.
void expect_same_texture(FramePainter& painter, Canvas& canvas, const PaintJob& job, const SourceImages& sources,
                         FrameRoute direct_route) {
    const auto copied = paint_through(painter, Present::Surface, canvas, job, sources);
    ASSERT_EQ(painter.route(), FrameRoute::Copy);
    const auto shown_copied = canvas.read_texture();
    const auto direct = paint_through(painter, Present::Direct, canvas, job, sources);
    ASSERT_EQ(painter.route(), direct_route) << painter.why_copied();
    for (std::size_t i = 3; i < direct.size(); i += 4)
        ASSERT_NE(direct[i], kPoison.a) << "texel " << i / 4 << " unwritten";
    for (std::size_t i = 0; i < direct.size(); ++i)
        ASSERT_EQ(direct[i], copied[i]) << "byte " << i % 4 << " of texel (" << i / 4 % canvas.width() << ", "
                                        << i / 4 / canvas.width() << ")";
    EXPECT_EQ(canvas.read_texture(), shown_copied); // what is drawn and saved, red and blue in place
}

TEST_F(GpuDirect, EveryPerPixelOpWritesTheTextureAsTheCopyDoes) {
    FramePainter painter(Backend::CudaInterop);
    std::mt19937 rng(2026);
    for (auto [w, h] : {std::pair{333, 211}, {1, 1}, {7, 3}, {64, 48}, {1023, 517}}) {
        Canvas canvas(w, h);
        SourceImages sources;
        sources.fit(w, h);
        sources.set(0, noise(w, h, rng), "noise A");
        sources.set(1, noise(w, h, rng), "noise B");
        for (const OpInfo& op : op_registry()) {
            if (op.custom || op.user_code) continue;
            for (Mapping mapping : kAllMappings)
                for (int ppt : {1, 4}) {
                    if (ppt == 4 && mapping != Mapping::TwoD) continue; // four a thread: the 2d mapping's
                    const PaintJob job = random_job(op.index, w, h, mapping, ppt, rng);
                    SCOPED_TRACE(std::string(op.name) + " " + std::to_string(w) + "x" + std::to_string(h) + " " +
                                 std::string(mapping_name(mapping)) + " ppt " + std::to_string(ppt) + " block " +
                                 to_string(job.launch.block));
                    expect_same_texture(painter, canvas, job, sources, FrameRoute::Direct);
                    if (HasFatalFailure()) return;
                }
        }
    }
}

// Frames that need the buffer take the copy under present direct, and say why; the picture is the same.
TEST_F(GpuDirect, FramesThatNeedTheBufferAreCopiedAndSayWhy) {
    FramePainter painter(Backend::CudaInterop);
    std::mt19937 rng(7);
    const int w = 333, h = 211;
    Canvas canvas(w, h);
    SourceImages sources;
    sources.fit(w, h);
    sources.set(0, noise(w, h, rng), "noise A");
    PaintJob view = random_job(find_op("invert")->index, w, h, Mapping::TwoD, 1, rng);
    view.view = View::Block;
    PaintJob custom = random_job(find_op("box_blur")->index, w, h, Mapping::TwoD, 1, rng);
    custom.params.radius = 2;
    for (const PaintJob& job : {view, custom}) {
        expect_same_texture(painter, canvas, job, sources, FrameRoute::Copy);
        EXPECT_FALSE(painter.why_copied().empty());
    }
    painter.record_writers(true); // the inspector
    expect_same_texture(painter, canvas, random_job(find_op("blend")->index, w, h, Mapping::TwoD, 4, rng), sources,
                        FrameRoute::Copy);
    EXPECT_NE(painter.why_copied().find("inspector"), std::string::npos) << painter.why_copied();
    EXPECT_TRUE(painter.sm_of_pixel(5, 5).has_value()); // the record the copy path kept
}

// The texture follows resizes (re-registered) and a frame that goes direct copies nothing.
TEST_F(GpuDirect, DirectFramesFollowResizesAndTimeNoCopy) {
    FramePainter painter(Backend::CudaInterop);
    painter.set_present(Present::Direct);
    std::mt19937 rng(3);
    Canvas canvas(64, 64);
    for (auto [w, h] : {std::pair{640, 480}, {33, 17}, {3840, 2160}, {333, 211}}) {
        canvas.resize(w, h);
        SourceImages sources;
        sources.fit(w, h);
        sources.set(0, noise(w, h, rng), "noise A");
        sources.set(1, noise(w, h, rng), "noise B");
        expect_same_texture(painter, canvas, random_job(find_op("add")->index, w, h, Mapping::TwoD, 4, rng), sources,
                            FrameRoute::Direct);
        if (HasFatalFailure()) return;
    }
    PaintJob job;
    job.params.width = canvas.width(), job.params.height = canvas.height();
    for (int i = 0; i < 10; ++i) ASSERT_EQ(painter.paint(job, canvas), std::nullopt);
    glFinish();
    painter.collect_timings(true);
    EXPECT_EQ(painter.route(), FrameRoute::Direct);
    EXPECT_GE(painter.times().kernel.count(), 5u);
    EXPECT_TRUE(painter.times().copy.empty());
}

} // namespace
} // namespace kc
