#pragma once
// The GPU tests' one set-up: every test skips, saying why, where no CUDA device is usable; else it
// gets the test GPU's figures (KC_TEST_GPU, default 0), a painting stream, a workspace for the custom ops, and a way to
// paint a job into a poisoned device buffer and read it back.
#include <gtest/gtest.h>

#include <optional>
#include <string>
#include <vector>

#include "gpu/cuda_device.h"
#include "gpu/cuda_paint.h"
#include "gpu/cuda_raii.h"
#include "tests/support/poison.h"
#include "tests/support/test_gpu_device.h"

namespace kc::test {

class GpuTest : public ::testing::Test {
protected:
    void SetUp() override {
        if (auto why = cuda_unavailable_reason()) GTEST_SKIP() << "no CUDA device: " << *why;
        KC_CUDA_CHECK_THROW(cudaSetDevice(test_gpu()));
        info_ = query_device(test_gpu());
        stream_ = CudaStream::create();
    }

    // Paints `job` with cuda_paint into a device buffer of kPoison; returns the pixels. A refusal
    // goes to `refusal` when given, else it fails the test. Everything runs on the painting stream
    // (non-blocking): a pageable cudaMemcpy may return before its DMA lands and race the kernel.
    std::vector<Pixel> paint_poisoned(const PaintJob& job, PixelRecord record = {},
                                      std::optional<std::string>* refusal = nullptr) {
        const std::size_t n = std::size_t(job.params.width) * job.params.height;
        DeviceBuffer<Pixel> out(n);
        cuda_fill(out.data(), n, kPoison, stream_.get());
        const auto error = cuda_paint(job, info_.limits, out.data(), stream_.get(), ws_, record);
        if (refusal)
            *refusal = error;
        else
            EXPECT_EQ(error, std::nullopt) << error.value_or("");
        std::vector<Pixel> host(n);
        KC_CUDA_CHECK_THROW(
            cudaMemcpyAsync(host.data(), out.data(), out.bytes(), cudaMemcpyDeviceToHost, stream_.get()));
        KC_CUDA_CHECK_THROW(cudaStreamSynchronize(stream_.get()));
        return host;
    }

    DeviceInfo info_;
    CudaStream stream_;
    CudaOpWorkspace ws_;
};

} // namespace kc::test
