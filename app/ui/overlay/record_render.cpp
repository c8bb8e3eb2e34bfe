#include "app/ui/overlay/record_render.h"

#include <backends/imgui_impl_opengl3.h>
#include <imgui.h>

#include <algorithm>
#include <cfloat>

#include "app/ab/ab_state.h"
#include "app/ab/pixel_diff.h"
#include "app/ab/split_picture.h"
#include "app/ui/overlay/canvas_overlay.h"
#include "app/ui/panels/teach_panel.h"
#include "app/ui/ui_scale.h"
#include "app/ui/widgets.h"
#include "gpu/registry.h"
#include "render/gl_objects.h"

namespace kc {

namespace {

constexpr ImGuiWindowFlags kBoxFlags = ImGuiWindowFlags_NoDecoration | ImGuiWindowFlags_NoInputs |
                                       ImGuiWindowFlags_NoSavedSettings | ImGuiWindowFlags_NoFocusOnAppearing |
                                       ImGuiWindowFlags_NoNav | ImGuiWindowFlags_AlwaysAutoResize;

// Bottom right, over the caption: the corner farthest from block 0 (top left, where every mapping
// starts painting), so step mode's first blocks are never under it.
void legend_box(const PaintJob& job, float w, float bottom) {
    const float pad = 6, width = std::min(w * 0.5f, ImGui::GetFontSize() * 24);
    ImGui::SetNextWindowPos(ImVec2(w - pad, bottom - pad), ImGuiCond_Always, ImVec2(1, 1));
    ImGui::SetNextWindowSizeConstraints(ImVec2(width, 0), ImVec2(width, FLT_MAX));
    ImGui::SetNextWindowBgAlpha(0.8f);
    ImGui::Begin("##record legend", nullptr, kBoxFlags);
    ImGui::Text("%s view", std::string(view_name(job.view)).c_str());
    view_legend(job, resolve_launch(job, universal_limits()).grid, false);
    ImGui::End();
}

// Along the bottom; returns its height.
float caption_box(const RecordFrame& f, float w, float h) {
    ImGui::SetNextWindowPos(ImVec2(0, h), ImGuiCond_Always, ImVec2(0, 1));
    ImGui::SetNextWindowSizeConstraints(ImVec2(w, 0), ImVec2(w, FLT_MAX));
    ImGui::SetNextWindowBgAlpha(0.8f);
    ImGui::Begin("##record caption", nullptr, kBoxFlags);
    for (std::size_t i = 0; i < f.caption.size(); ++i) {
        ImGui::TextUnformatted(f.caption[i].c_str());
        if (i == 0 && !f.formula.empty()) { // the formula under the title, in the code font
            ImGui::PushFont(mono_font());
            ImGui::TextUnformatted(f.formula.c_str());
            ImGui::PopFont();
        }
    }
    const float height = ImGui::GetWindowHeight();
    ImGui::End();
    return height;
}

// The recording's own ImGui context, made current for a while and the caller's back after.
class ContextSwitch {
public:
    explicit ContextSwitch(ImGuiContext* to) : previous_(ImGui::GetCurrentContext()), log_(widget_log()) {
        ImGui::SetCurrentContext(to);
        attach_widget_log(nullptr); // a script reads the window's controls, not the recording's
    }
    ~ContextSwitch() {
        ImGui::SetCurrentContext(previous_);
        attach_widget_log(log_);
    }
    ContextSwitch(const ContextSwitch&) = delete;
    ContextSwitch& operator=(const ContextSwitch&) = delete;

private:
    ImGuiContext* previous_;
    WidgetLog* log_;
};

} // namespace

struct RecordRenderer::Overlay {
    int width, height;
    ImGuiContext* context = nullptr;
    GlTexture colour;
    GlFramebuffer framebuffer;
    CanvasView view; // the whole frame is the canvas, at 1:1

    Overlay(int w, int h) : width(w), height(h) {
        ImGuiContext* previous = ImGui::GetCurrentContext();
        context = ImGui::CreateContext();
        {
            ContextSwitch use(context);
            ImGuiIO& io = ImGui::GetIO();
            io.IniFilename = nullptr, io.LogFilename = nullptr;
            // 16-pixel text on an 800-pixel-high frame, as legible in a slide as the panel on a screen.
            const float scale = std::clamp(h / 650.0f, 0.75f, 3.0f);
            ImGui::GetStyle() = ui_style(scale);
            add_ui_fonts(scale);
            ImGui_ImplOpenGL3_Init("#version 330 core");
        }
        ImGui::SetCurrentContext(previous);
        colour = GlTexture::create();
        glBindTexture(GL_TEXTURE_2D, colour.id());
        glTexImage2D(GL_TEXTURE_2D, 0, GL_RGBA8, w, h, 0, GL_RGBA, GL_UNSIGNED_BYTE, nullptr);
        glBindTexture(GL_TEXTURE_2D, 0);
        framebuffer = GlFramebuffer::create();
        GLint bound = 0;
        glGetIntegerv(GL_FRAMEBUFFER_BINDING, &bound);
        glBindFramebuffer(GL_FRAMEBUFFER, framebuffer.id());
        glFramebufferTexture2D(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_TEXTURE_2D, colour.id(), 0);
        glBindFramebuffer(GL_FRAMEBUFFER, GLuint(bound));
        view.set_viewport({0, 0, double(w), double(h)}, 1.0);
        view.set_canvas_size(w, h);
    }
    ~Overlay() {
        {
            ContextSwitch use(context);
            ImGui_ImplOpenGL3_Shutdown();
        }
        ImGuiContext* current = ImGui::GetCurrentContext();
        ImGui::DestroyContext(context);
        ImGui::SetCurrentContext(current == context ? nullptr : current);
    }
    Overlay(const Overlay&) = delete;
    Overlay& operator=(const Overlay&) = delete;

    // One ImGui frame of the overlays; auto-sized boxes take their size from the frame before,
    // so each recorded frame is laid out once unseen, then drawn.
    std::vector<Pixel> draw(const RecordFrame& f, const RecordOverlays& o,
                            const std::optional<InspectedPixel>& inspected, bool cpu_backend) {
        ContextSwitch use(context);
        TeachState teach;
        teach.block_outlines = o.outlines, teach.flag_repeats = o.tint;
        teach.inspector = o.inspect.has_value(), teach.pinned_pixel = o.inspect;
        const ResolvedLaunch resolved = resolve_launch(f.job, universal_limits());
        const OverlayInput input{f.job, resolved, teach, view, width, height, {}, inspected, cpu_backend};
        const OpInfo& op = op_registry()[f.job.op];
        for (int pass = 0; pass < 2; ++pass) {
            ImGuiIO& io = ImGui::GetIO();
            io.DisplaySize = ImVec2(float(width), float(height));
            io.DisplayFramebufferScale = ImVec2(1, 1);
            io.DeltaTime = 1.0f / 30;
            ImGui_ImplOpenGL3_NewFrame();
            ImGui::NewFrame();
            draw_canvas_overlay(input);
            const float caption = o.caption ? caption_box(f, float(width), float(height)) : 0.0f;
            if (o.legend && f.job.view != View::Pixels && !op.custom && !op.user_code)
                legend_box(f.job, float(width), float(height) - caption);
            if (pass == 0) ImGui::EndFrame();
        }
        ImGui::Render();
        GLint bound = 0, viewport[4] = {};
        glGetIntegerv(GL_FRAMEBUFFER_BINDING, &bound);
        glGetIntegerv(GL_VIEWPORT, viewport);
        glBindFramebuffer(GL_FRAMEBUFFER, framebuffer.id());
        glViewport(0, 0, width, height);
        glClearColor(0, 0, 0, 0);
        glClear(GL_COLOR_BUFFER_BIT);
        ImGui_ImplOpenGL3_RenderDrawData(ImGui::GetDrawData());
        std::vector<Pixel> pixels = read_framebuffer(width, height);
        glBindFramebuffer(GL_FRAMEBUFFER, GLuint(bound));
        glViewport(viewport[0], viewport[1], viewport[2], viewport[3]);
        return pixels;
    }
};

RecordRenderer::RecordRenderer(FramePainter& painter, int width, int height)
    : painter_(painter), canvas_(width, height) {}

RecordRenderer::~RecordRenderer() = default;

std::optional<std::string> RecordRenderer::render(const RecordFrame& f, const RecordOverlays& overlays,
                                                  const SourceImages* sources, std::vector<Pixel>& out) {
    FrameLayers layers;
    if (auto e = render_layers(f, overlays, sources, layers)) return e;
    out = std::move(layers.canvas);
    composite_over(out, layers.marks);
    composite_over(out, layers.boxes);
    return std::nullopt;
}

std::optional<std::string> RecordRenderer::render_layers(const RecordFrame& f, const RecordOverlays& overlays,
                                                         const SourceImages* sources, FrameLayers& out) {
    // The inspected pixel's writer is recorded by this very paint (the window's paint step does the same).
    const ResolvedLaunch resolved = resolve_launch(f.job, universal_limits());
    const bool inspect =
        overlays.inspect && !resolved.launch_refusal && overlays_apply(f.job, canvas_.width(), canvas_.height());
    painter_.record_writers(inspect && !resolved.own);
    if (auto refused = painter_.paint(f.job, canvas_, sources)) return "launch refused: " + *refused;
    painter_.collect_timings();
    out = FrameLayers{canvas_.read_texture(), {}, {}};
    if (!overlays.any()) return std::nullopt;
    std::optional<InspectedPixel> inspected;
    if (inspect)
        inspected =
            probe_pixel(painter_, canvas_, f.job, resolved, {overlays.inspect->first, overlays.inspect->second});
    if (!overlay_) overlay_ = std::make_unique<Overlay>(canvas_.width(), canvas_.height());
    const bool cpu = painter_.backend() == Backend::Cpu;
    RecordOverlays marks = overlays, boxes = overlays;
    marks.caption = marks.legend = false;
    boxes.outlines = boxes.tint = false, boxes.inspect.reset();
    if (marks.any()) out.marks = overlay_->draw(f, marks, inspected, cpu);
    if (boxes.any()) out.boxes = overlay_->draw(f, boxes, std::nullopt, cpu);
    return std::nullopt;
}

RecordOverlays side_b_overlays(const RecordOverlays& a, AbLayout layout) {
    RecordOverlays b = a;
    if (layout != AbLayout::SideBySide) b.caption = b.legend = false;
    b.inspect.reset();
    return b;
}

namespace {

// `a`'s columns left of the divider and `b`'s from it (side by side: `a` then `b`); empty when
// neither side drew anything.
std::vector<Pixel> split_layer(const std::vector<Pixel>& a, const std::vector<Pixel>& b, int width, int height,
                               const AbSplit& split) {
    if (a.empty() && b.empty()) return {};
    const std::size_t n = std::size_t(width) * height;
    const auto pixel = [n](const std::vector<Pixel>& layer, std::size_t k) {
        return layer.size() == n ? layer[k] : Pixel{0, 0, 0, 0}; // a side that drew nothing
    };
    const bool side_by_side = split.layout == AbLayout::SideBySide;
    const int out_width = side_by_side ? 2 * width : width, first_b = divider_column(split.divider, width);
    std::vector<Pixel> out(std::size_t(out_width) * height);
    for (int y = 0; y < height; ++y)
        for (int x = 0; x < out_width; ++x) {
            const bool from_b = side_by_side ? x >= width : x >= first_b;
            const int column = side_by_side && from_b ? x - width : x;
            out[std::size_t(y) * out_width + x] = pixel(from_b ? b : a, std::size_t(y) * width + column);
        }
    return out;
}

} // namespace

std::optional<std::string> render_split_frame(const AbSplit& split, const RecordFrame& f, const LayersRender& a,
                                              const LayersRender& b, std::vector<Pixel>& out) {
    FrameLayers side_a, side_b;
    if (auto e = a(f, side_a)) return e;
    RecordFrame frame_b = f;
    frame_b.job = side_b_job(split, f.job);
    if (auto e = b(frame_b, side_b)) return "side B: " + *e;
    // The canvases alone are compared: A's caption is not a difference.
    const PixelDiff diff = diff_pixels(side_a.canvas, side_b.canvas);
    const int w = f.job.params.width, h = f.job.params.height;
    const SplitPicture picture = split_picture(side_a.canvas, side_b.canvas, w, h, split, split.diff ? &diff : nullptr);
    out = picture.pixels;
    composite_over(out, split_layer(side_a.marks, side_b.marks, w, h, split));
    composite_over(out, split.layout == AbLayout::SideBySide ? split_layer(side_a.boxes, side_b.boxes, w, h, split)
                                                             : side_a.boxes);
    return std::nullopt;
}

void composite_over(std::vector<Pixel>& canvas, const std::vector<Pixel>& overlay) {
    const std::size_t n = std::min(canvas.size(), overlay.size());
    for (std::size_t i = 0; i < n; ++i) {
        const Pixel o = overlay[i];
        if (o.a == 0) continue;
        Pixel& c = canvas[i];
        const int keep = 255 - o.a;
        auto mix = [keep](int over, int under) {
            return std::uint8_t(std::min(255, over + (under * keep + 127) / 255));
        };
        c = Pixel{mix(o.b, c.b), mix(o.g, c.g), mix(o.r, c.r), 255};
    }
}

} // namespace kc
