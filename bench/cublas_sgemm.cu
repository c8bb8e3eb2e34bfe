// cuBLAS SGEMM (FP32, no tensor-core math) at N = 1024, 2048, 4096: the reference the matmul
// kernels of kcanvas bench are compared with. Prints a CSV row per N on stdout:
//     impl,n,us,tflops
// Usage: cublas_sgemm [reps]   (default 20; medians of CUDA-event timings after 3 warm-up calls)
#include <cublas_v2.h>
#include <cuda_runtime.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <vector>

namespace {

void check(bool ok, const char* what) {
    if (!ok) {
        std::fprintf(stderr, "cublas_sgemm: %s failed\n", what);
        std::exit(1);
    }
}

__global__ void fill(float* m, long long count, unsigned seed) {
    for (long long i = blockIdx.x * 1LL * blockDim.x + threadIdx.x; i < count; i += 1LL * blockDim.x * gridDim.x) {
        unsigned h = static_cast<unsigned>(i) * 0x9e3779b9u + seed;
        h ^= h >> 15, h *= 0x846ca68bu, h ^= h >> 16;
        m[i] = static_cast<float>(h & 0xFFFF) / 32767.5f - 1.0f;
    }
}

double sgemm_median_us(cublasHandle_t handle, int n, int reps) {
    float *a, *b, *c;
    const size_t bytes = sizeof(float) * n * n;
    check(cudaMalloc(&a, bytes) == cudaSuccess && cudaMalloc(&b, bytes) == cudaSuccess &&
              cudaMalloc(&c, bytes) == cudaSuccess,
          "cudaMalloc");
    fill<<<1024, 256>>>(a, 1LL * n * n, 1);
    fill<<<1024, 256>>>(b, 1LL * n * n, 2);
    cudaEvent_t start, stop;
    cudaEventCreate(&start), cudaEventCreate(&stop);
    const float one = 1.0f, zero = 0.0f;
    std::vector<double> times;
    for (int i = 0; i < 3 + reps; ++i) {
        cudaEventRecord(start);
        check(cublasSgemm(handle, CUBLAS_OP_N, CUBLAS_OP_N, n, n, n, &one, a, n, b, n, &zero, c, n) ==
                  CUBLAS_STATUS_SUCCESS,
              "cublasSgemm");
        cudaEventRecord(stop);
        check(cudaEventSynchronize(stop) == cudaSuccess, "the SGEMM");
        float ms = 0;
        cudaEventElapsedTime(&ms, start, stop);
        if (i >= 3) times.push_back(ms * 1000.0);
    }
    cudaEventDestroy(start), cudaEventDestroy(stop);
    cudaFree(a), cudaFree(b), cudaFree(c);
    std::nth_element(times.begin(), times.begin() + times.size() / 2, times.end());
    return times[times.size() / 2];
}

} // namespace

int main(int argc, char** argv) {
    const int reps = argc > 1 ? std::max(1, std::atoi(argv[1])) : 20;
    cublasHandle_t handle;
    check(cublasCreate(&handle) == CUBLAS_STATUS_SUCCESS, "cublasCreate");
    check(cublasSetMathMode(handle, CUBLAS_DEFAULT_MATH) == CUBLAS_STATUS_SUCCESS,
          "cublasSetMathMode"); // FP32, no TF32
    std::printf("impl,n,us,tflops\n");
    for (int n : {1024, 2048, 4096}) {
        const double us = sgemm_median_us(handle, n, reps);
        std::printf("cuBLAS SGEMM,%d,%.2f,%.3f\n", n, us, 2.0 * n * n * n / us * 1e-6);
    }
    cublasDestroy(handle);
    return 0;
}
