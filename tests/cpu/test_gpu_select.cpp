// Choosing the GPU without one: --gpu's matching and refusals, the CUDA/GL pairing, the list's and
// the Device section's text, over made-up machines of 0, 1 and 2 GPUs; and the command line here.
#include <gtest/gtest.h>

#include "app/core/gpu_list.h"
#include "gpu/gpu_select.h"
#include "tests/support/run_process.h"

namespace kc {
namespace {

constexpr std::size_t kGiB = std::size_t(1) << 30;

const std::vector<GpuDescription> kOneH200 = {
    {0, "NVIDIA H200", 141 * kGiB, "GPU-8f3a2b1c-1111-2222-3333-444455556666", "00000000:19:00.0"}};
const std::vector<GpuDescription> kTwoH200 = {
    kOneH200[0], {1, "NVIDIA H200", 141 * kGiB, "GPU-12ab34cd-5555-6666-7777-888899990000", "00000000:3B:00.0"}};
// A hybrid-style pair: two different names.
const std::vector<GpuDescription> kMixed = {
    {0, "NVIDIA GeForce RTX 4090", 24 * kGiB, "GPU-aaaa0000-0000-0000-0000-000000000000", "00000000:01:00.0"},
    {1, "NVIDIA RTX A6000", 48 * kGiB, "GPU-bbbb0000-0000-0000-0000-000000000000", "00000000:02:00.0"}};

bool contains(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

// kcanvas with a time limit: a refusal that does not happen would open a window or run a bench.
test::ProcessResult run_bounded(const std::string& args) {
    return test::run_shell("XDG_DATA_HOME='" + test::test_data_home() + "' timeout 60 " + std::string(KCANVAS_BIN) +
                           " " + args);
}

TEST(GpuChoice, NoGpuRefusesEveryChoiceSayingWhy) {
    for (const char* spec : {"0", "1", "NVIDIA", "GPU-8f"}) {
        const GpuChoice c = choose_gpu(spec, {}, "the NVIDIA driver reports no CUDA device");
        EXPECT_FALSE(c.index) << spec;
        EXPECT_TRUE(contains(c.error, "no CUDA GPU")) << c.error;
        EXPECT_TRUE(contains(c.error, "the NVIDIA driver reports no CUDA device")) << c.error;
    }
}

TEST(GpuChoice, IndexOnOneGpu) {
    EXPECT_EQ(choose_gpu("0", kOneH200).index, 0);
    EXPECT_EQ(choose_gpu("00", kOneH200).index, 0);
    for (const char* spec : {"1", "7", "99999999999999999999999"}) {
        const GpuChoice c = choose_gpu(spec, kOneH200);
        EXPECT_FALSE(c.index) << spec;
        EXPECT_TRUE(contains(c.error, std::string("there is no CUDA device ") + spec)) << c.error;
        // The refusal lists the GPUs there are, with what tells them apart.
        EXPECT_TRUE(contains(c.error, "GPU 0: NVIDIA H200, 141.0 GiB, GPU-8f3a2b1c-1111-2222-3333-444455556666, PCI "
                                      "00000000:19:00.0"))
            << c.error;
    }
}

TEST(GpuChoice, IndexOnTwoGpus) {
    EXPECT_EQ(choose_gpu("0", kTwoH200).index, 0);
    EXPECT_EQ(choose_gpu("1", kTwoH200).index, 1);
    const GpuChoice c = choose_gpu("2", kTwoH200);
    EXPECT_FALSE(c.index);
    EXPECT_TRUE(contains(c.error, "  GPU 0: NVIDIA H200")) << c.error;
    EXPECT_TRUE(contains(c.error, "  GPU 1: NVIDIA H200")) << c.error;
    EXPECT_TRUE(contains(c.error, "GPU-12ab34cd")) << c.error;
}

TEST(GpuChoice, NamePrefixUniqueAmbiguousOrNone) {
    EXPECT_EQ(choose_gpu("NVIDIA GeForce", kMixed).index, 0);
    EXPECT_EQ(choose_gpu("nvidia rtx a", kMixed).index, 1); // case does not matter
    EXPECT_EQ(choose_gpu("NVIDIA H200", kOneH200).index, 0);

    const GpuChoice ambiguous = choose_gpu("NVIDIA", kMixed);
    EXPECT_FALSE(ambiguous.index);
    EXPECT_TRUE(contains(ambiguous.error, "matches 2 GPUs")) << ambiguous.error;
    EXPECT_TRUE(contains(ambiguous.error, "GPU 0: NVIDIA GeForce RTX 4090")) << ambiguous.error;
    EXPECT_TRUE(contains(ambiguous.error, "GPU 1: NVIDIA RTX A6000")) << ambiguous.error;
    EXPECT_FALSE(choose_gpu("NVIDIA H200", kTwoH200).index); // two of the same: the name cannot choose

    const GpuChoice none = choose_gpu("Tesla", kMixed);
    EXPECT_FALSE(none.index);
    EXPECT_TRUE(contains(none.error, "--gpu 'Tesla' is no GPU's index, nor a prefix")) << none.error;
    EXPECT_TRUE(contains(none.error, "GPU 1: NVIDIA RTX A6000")) << none.error;
    EXPECT_FALSE(choose_gpu("H200", kOneH200).index); // a prefix, not any part of the name
}

TEST(GpuChoice, UuidPrefixWithOrWithoutGpuDash) {
    EXPECT_EQ(choose_gpu("GPU-12ab", kTwoH200).index, 1);
    EXPECT_EQ(choose_gpu("gpu-8F3A2B1C-1111", kTwoH200).index, 0);
    EXPECT_EQ(choose_gpu("12AB34", kTwoH200).index, 1);
    EXPECT_EQ(choose_gpu("8f", kTwoH200).index, 0);
    const GpuChoice ambiguous = choose_gpu("GPU-", kTwoH200);
    EXPECT_FALSE(ambiguous.index);
    EXPECT_TRUE(contains(ambiguous.error, "matches 2 GPUs")) << ambiguous.error;
    EXPECT_FALSE(choose_gpu("GPU-ffff", kTwoH200).index);
    EXPECT_FALSE(choose_gpu("", kTwoH200).index);
}

// The pairing: CUDA follows GL unless chosen; a chosen GPU that GL does not run on keeps CUDA
// there and takes interop away, with the reason, so the painter falls back to cuda-staged.
TEST(GpuPairing, DefaultFollowsTheGlContext) {
    const GpuPairing p = pair_cuda_with_gl(std::nullopt, {{1}, {}}, kMixed);
    EXPECT_EQ(p.cuda_device, 1);
    EXPECT_TRUE(p.interop);
    EXPECT_EQ(p.interop_why_not, "");
    const GpuPairing sli = pair_cuda_with_gl(0, {{1, 0}, {}}, kMixed); // a context spread over both
    EXPECT_EQ(sli.cuda_device, 0);
    EXPECT_TRUE(sli.interop);
    EXPECT_TRUE(pair_cuda_with_gl(1, {{1}, {}}, kMixed).interop);
}

TEST(GpuPairing, MismatchIsDetectedAndFallsBackToStaged) {
    const GpuPairing p = pair_cuda_with_gl(1, {{0}, {}}, kMixed);
    EXPECT_EQ(p.cuda_device, 1); // CUDA still paints on the chosen GPU: the staged path
    EXPECT_FALSE(p.interop);
    EXPECT_TRUE(contains(p.interop_why_not, "--gpu chose GPU 1 (NVIDIA RTX A6000) for CUDA")) << p.interop_why_not;
    EXPECT_TRUE(contains(p.interop_why_not, "OpenGL runs on GPU 0 (NVIDIA GeForce RTX 4090)")) << p.interop_why_not;
    EXPECT_TRUE(contains(p.interop_why_not, "cuda-staged")) << p.interop_why_not;
    // The same on two GPUs of one name: the indices tell them apart.
    const GpuPairing same = pair_cuda_with_gl(0, {{1}, {}}, kTwoH200);
    EXPECT_FALSE(same.interop);
    EXPECT_TRUE(contains(same.interop_why_not, "GPU 0 (NVIDIA H200) for CUDA, but OpenGL runs on GPU 1 (NVIDIA H200)"))
        << same.interop_why_not;
}

TEST(GpuPairing, GlOnNoCudaDeviceKeepsCudaWithoutInterop) {
    const GlGpus software{{}, "CUDA cannot use this OpenGL context: operation not supported"};
    const GpuPairing p = pair_cuda_with_gl(std::nullopt, software, kMixed);
    EXPECT_EQ(p.cuda_device, 0);
    EXPECT_FALSE(p.interop);
    EXPECT_EQ(p.interop_why_not, software.why_not);
    const GpuPairing chosen = pair_cuda_with_gl(1, software, kMixed);
    EXPECT_EQ(chosen.cuda_device, 1);
    EXPECT_FALSE(chosen.interop);
    EXPECT_FALSE(pair_cuda_with_gl(std::nullopt, {{}, {}}, kMixed).interop_why_not.empty());
}

TEST(GpuPanelLines, NameMemoryAndRoles) {
    EXPECT_EQ(device_gpu_lines(kMixed, {0}, 1, "NVIDIA GeForce RTX 4090/PCIe/SSE2"),
              (std::vector<std::string>{"GPU 0: NVIDIA GeForce RTX 4090, 24.0 GiB - runs OpenGL",
                                        "GPU 1: NVIDIA RTX A6000, 48.0 GiB - CUDA paints here"}));
    EXPECT_EQ(device_gpu_lines(kOneH200, {0}, 0, "x"),
              (std::vector<std::string>{"GPU 0: NVIDIA H200, 141.0 GiB - runs OpenGL; CUDA paints here"}));
    EXPECT_EQ(
        device_gpu_lines(kTwoH200, {}, 0, "llvmpipe"),
        (std::vector<std::string>{"GPU 0: NVIDIA H200, 141.0 GiB - CUDA paints here",
                                  "GPU 1: NVIDIA H200, 141.0 GiB - idle", "OpenGL runs on llvmpipe, no CUDA GPU"}));
    EXPECT_EQ(device_gpu_lines({}, {}, -1, "llvmpipe (LLVM 15)"),
              (std::vector<std::string>{"GPUs: no CUDA GPU", "OpenGL runs on llvmpipe (LLVM 15), no CUDA GPU"}));
}

TEST(GpuListText, EachGpuWithItsEglDeviceAndInterop) {
    GpuList list;
    list.egl.devices = {{0, 1, "/dev/dri/card2", ""}, {1, 0, "/dev/dri/card1", ""}, {2, std::nullopt, "", "llvmpipe"}};
    list.gpus = {{kTwoH200[0], list.egl.devices[1], true, {}},
                 {kTwoH200[1], list.egl.devices[0], false, "CUDA cannot register GL buffers here: x"}};
    const std::string text = format_gpu_list(list);
    EXPECT_EQ(text, "GPU 0: NVIDIA H200, 141.0 GiB, GPU-8f3a2b1c-1111-2222-3333-444455556666, PCI 00000000:19:00.0\n"
                    "  EGL device 1 (/dev/dri/card1); interop: yes\n"
                    "GPU 1: NVIDIA H200, 141.0 GiB, GPU-12ab34cd-5555-6666-7777-888899990000, PCI 00000000:3B:00.0\n"
                    "  EGL device 0 (/dev/dri/card2); interop: no (CUDA cannot register GL buffers here: x)\n"
                    "EGL devices that drive no CUDA GPU:\n"
                    "  EGL device 2 (llvmpipe)\n");
    GpuList none;
    none.why_no_gpu = "no NVIDIA GPU or driver found";
    none.egl.why_not = "no EGL device found";
    EXPECT_EQ(format_gpu_list(none), "no CUDA GPU: no NVIDIA GPU or driver found\nEGL devices: none (no EGL device "
                                     "found)\n");
}

// The command line on this machine, whichever GPUs it has: one past the last index is refused
// with the list (here, with no GPU, "no CUDA GPU"), for the window, headless and bench alike.
TEST(GpuCli, GpuPastTheLastIsRefusedWithTheList) {
    const CudaGpus& here = cuda_gpu_list();
    const std::string past = std::to_string(here.gpus.size());
    for (const std::string& args : {"--gpu " + past, "--headless --gpu " + past, "bench --gpu " + past,
                                    "--gpu " + past + " bench", std::string("--headless --gpu no-such-gpu")}) {
        SCOPED_TRACE(args);
        const auto r = run_bounded(args);
        EXPECT_EQ(r.exit_code, 2) << r.output;
        if (here.gpus.empty()) {
            EXPECT_TRUE(contains(r.output, "no CUDA GPU")) << r.output;
        }
        for (const GpuDescription& g : here.gpus)
            EXPECT_TRUE(contains(r.output, "GPU " + std::to_string(g.index) + ": " + describe_gpu(g))) << r.output;
    }
    if (here.gpus.empty()) { // --gpu 1 exactly, as the task states it
        const auto r = run_bounded("--headless --gpu 1");
        EXPECT_EQ(r.exit_code, 2) << r.output;
        EXPECT_TRUE(contains(r.output, "kcanvas: --gpu 1: no CUDA GPU here: ")) << r.output;
    }
}

TEST(GpuCli, ListGpusSaysWhatIsHere) {
    const auto r = test::run("--list-gpus");
    EXPECT_EQ(r.exit_code, 0) << r.output;
    const CudaGpus& here = cuda_gpu_list();
    if (here.gpus.empty()) {
        EXPECT_TRUE(contains(r.output, "no CUDA GPU: " + here.why_none)) << r.output;
    }
    for (const GpuDescription& g : here.gpus)
        EXPECT_TRUE(contains(r.output, "GPU " + std::to_string(g.index) + ": " + g.name)) << r.output;
    EXPECT_TRUE(contains(test::run("--help").output, "--list-gpus"));
    EXPECT_TRUE(contains(test::run("--help").output, "--gpu"));
}

} // namespace
} // namespace kc
