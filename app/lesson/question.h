#pragma once
// A lesson step's question, answered by kcanvas's own model, never by the lesson's author: the
// coverage and idle threads (gpu/launch_config.h), the inverse mapping (gpu/thread_of_pixel.h), the
// index a thread past the canvas writes (named as checked mode names it, gpu/kernel_check.h),
// warp 0's store (first_warp_stores), waves on a stated GPU (gpu/launch_figures.h), and "which is
// faster" measured by a timer that only a GPU backend provides. The student answers first; the
// Answer holds what the reveal shows.
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <variant>
#include <vector>

#include <nlohmann/json.hpp>

#include "app/core/preset.h"

namespace kc {

enum class QuestionKind {
    UncoveredPixels, // how many pixels no thread writes
    IdleThreads,     // how many threads the bounds check sends home without a pixel
    PixelOfThread,   // click the pixel thread T of block B paints
    BlockOfPixel,    // which block paints pixel (x, y)
    WarpSectors,     // how many 32-byte sectors warp 0's store touches
    WarpLines,       // how many 128-byte cache lines it touches
    Waves,           // how many waves the grid takes on a stated GPU
    TailBlocks,      // how many blocks the last, partial wave holds
    Faster,          // which is faster, A or B (timed on a GPU only)
    OutOfRangeIndex, // which index of out thread T of block B writes when the kernel has no bounds check
};
// The kinds by their lesson-file names, in this order.
constexpr std::string_view kQuestionKindNames[] = {
    "uncovered_pixels", "idle_threads", "pixel_of_thread", "block_of_pixel", "warp_sectors",
    "warp_lines",       "waves",        "tail_blocks",     "faster",         "out_of_range_index"};
std::string question_kinds(); // "uncovered_pixels, idle_threads, ..."

// The GPU a waves question is asked about: what the occupancy arithmetic needs (registers and shared
// memory aside). The default is an H200's.
struct GpuShape {
    std::string name = "an H200";
    int sms = 132, max_threads_per_sm = 2048, max_blocks_per_sm = 32;
};

struct Question {
    QuestionKind kind = QuestionKind::UncoveredPixels;
    Dim3 block_idx{0, 0, 0}, thread_idx{0, 0, 0}; // PixelOfThread, OutOfRangeIndex
    std::pair<int, int> pixel{0, 0};              // BlockOfPixel
    GpuShape gpu;                                 // Waves, TailBlocks
    struct Choice {
        std::string label;
        Preset preset; // the step's, with the choice's partial preset over it
    };
    Choice a, b; // Faster
};

struct Answer {
    std::string text;                        // "1440", "block (6, 21)", "pixel (103, 2)", "A"
    std::string why;                         // the model's reasoning, with this launch's numbers
    std::vector<long long> values;           // the numbers a typed reply must hold, in order
    char letter = 0;                         // Faster: 'A' or 'B'; 0: a number answer
    std::optional<std::pair<int, int>> mark; // a pixel the reveal marks (the answer's, or the asked one)
    bool skipped = false;                    // a timing this backend cannot measure: `why` says what a GPU shows
};

// Reads a question from a lesson step (the kind and its arguments) against the step's picture.
// Errors name the key: "question.kind: 'x' is not one of ...".
std::optional<std::string> parse_question(const nlohmann::json& j, const Preset& step, Question& out);

// The question as the student reads it: "Which block paints pixel (500, 420)?".
std::string question_text(const Question& q);

// Median kernel time of a preset's picture in microseconds, or nullopt where nothing can be timed
// honestly (the CPU backend: its times say nothing about a GPU).
using KernelTimer = std::function<std::optional<double>(const Preset&)>;

// The answer from the model, or why the question cannot be asked of this step (a pixel outside
// the canvas, a thread outside the launch or without a pixel, a refused launch): a broken step.
std::variant<Answer, std::string> answer_question(const Question& q, const Preset& step, const KernelTimer& timer);

// Whether a typed reply is the answer: the same numbers in the same order ("6,21", "(6, 21)",
// "block 6 21"), or the letter A or B. A skipped answer accepts anything.
bool reply_matches(const Answer& a, std::string_view reply);
// Whether clicking pixel (x, y) answers a PixelOfThread question: its writer is that thread.
bool click_matches(const Question& q, const Preset& step, int x, int y);

} // namespace kc
