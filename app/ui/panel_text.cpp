#include "app/ui/panel_text.h"

#include <string>

#include "app/ui/widgets.h"

namespace kc {

namespace {

float text_width(std::string_view s) { return ImGui::CalcTextSize(s.data(), s.data() + s.size()).x; }

// One line, broken at spaces where it would pass the panel's edge (ImGui's own wrapping also
// breaks after '.' and ',', inside `blockIdx.x` or `32..1024`); continuation lines start with `indent`.
void line_broken_at_spaces(std::string_view line, std::string_view indent) {
    const float avail = ImGui::GetContentRegionAvail().x;
    std::string_view rest = line;
    bool first = true;
    do {
        const float room = avail - (first ? 0.0f : text_width(indent));
        // The longest prefix ending before a space that fits (at least one token).
        std::size_t cut = rest.size();
        if (text_width(rest) > room) {
            std::size_t fit = std::string_view::npos;
            for (std::size_t space = rest.find(' ', 1); space != std::string_view::npos;
                 space = rest.find(' ', space + 1)) {
                if (text_width(rest.substr(0, space)) > room) break;
                fit = space;
            }
            if (fit == std::string_view::npos) fit = rest.find(' ', 1); // one token wider than the panel
            cut = fit == std::string_view::npos ? rest.size() : fit;
        }
        const std::string shown = (first ? std::string() : std::string(indent)) + std::string(rest.substr(0, cut));
        ImGui::TextUnformatted(shown.c_str());
        rest.remove_prefix(cut);
        while (!rest.empty() && rest.front() == ' ') rest.remove_prefix(1);
        first = false;
    } while (!rest.empty());
}

// Each line of `text` broken at spaces; the whole text is recorded once, as a person reads it.
void lines_broken_at_spaces(std::string_view text, std::string_view indent) {
    const std::string_view all = text;
    while (true) {
        const std::size_t end = text.find('\n');
        line_broken_at_spaces(text.substr(0, end), indent);
        if (end == std::string_view::npos) break;
        text.remove_prefix(end + 1);
    }
    ui::record_text(all);
}

} // namespace

void wrapped_text(const ImVec4& colour, std::string_view text) {
    ImGui::PushStyleColor(ImGuiCol_Text, colour);
    lines_broken_at_spaces(text, "");
    ImGui::PopStyleColor();
}

void wrapped_disabled(std::string_view text) { wrapped_text(ImGui::GetStyleColorVec4(ImGuiCol_TextDisabled), text); }

void wrapped(std::string_view text) { wrapped_text(ImGui::GetStyleColorVec4(ImGuiCol_Text), text); }

void code_lines(std::string_view text) { lines_broken_at_spaces(text, "    "); }

void same_line_if_fits(float width) {
    ImGui::SameLine();
    // After SameLine the cursor sits where the next item would go: is there room for it?
    if (ImGui::GetContentRegionAvail().x < width) ImGui::NewLine();
}

float button_width(std::string_view label) {
    return ImGui::CalcTextSize(label.data(), label.data() + label.size(), true).x +
           2.0f * ImGui::GetStyle().FramePadding.x;
}

float radio_width(std::string_view label) {
    return ImGui::GetFrameHeight() + ImGui::GetStyle().ItemInnerSpacing.x +
           ImGui::CalcTextSize(label.data(), label.data() + label.size(), true).x;
}

} // namespace kc
