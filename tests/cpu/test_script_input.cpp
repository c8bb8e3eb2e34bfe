// The script's input helpers without a window: key names and finding a control by its label.
#define GLFW_INCLUDE_NONE
#include <GLFW/glfw3.h>
#include <gtest/gtest.h>

#include <imgui.h>

#include <string>

#include "app/script/script_input.h"
#include "app/script/ui_script.h"
#include "app/ui/widgets.h"

namespace kc {
namespace {

TEST(ScriptInput, KeyChordsNameTheKeyItsModifiersAndWhatItTypes) {
    const auto q = parse_key_chord("ctrl+q");
    ASSERT_TRUE(q);
    EXPECT_EQ(q->key, GLFW_KEY_Q);
    EXPECT_EQ(q->mods, GLFW_MOD_CONTROL);
    EXPECT_EQ(q->text, 0u); // Ctrl+Q types nothing into a field
    const auto a = parse_key_chord("shift+a");
    ASSERT_TRUE(a);
    EXPECT_EQ(a->text, unsigned('A'));
    EXPECT_EQ(parse_key_chord("F12")->key, GLFW_KEY_F12);
    EXPECT_EQ(parse_key_chord("escape")->key, GLFW_KEY_ESCAPE);
    EXPECT_EQ(parse_key_chord("plus")->text, unsigned('+'));
    EXPECT_EQ(parse_key_chord("ctrl++")->key, GLFW_KEY_KP_ADD);
    EXPECT_EQ(parse_key_chord("7")->key, GLFW_KEY_7);
    EXPECT_FALSE(parse_key_chord("hyper+q"));
    EXPECT_FALSE(parse_key_chord("f99"));
    EXPECT_FALSE(parse_key_chord(""));
}

WidgetRecord widget(const std::string& label, bool in_popup = false) {
    WidgetRecord r;
    r.label = label;
    r.window = in_popup ? "##Combo_00" : "Kernel Canvas";
    r.in_popup = in_popup;
    r.visible = true;
    return r;
}

TEST(ScriptInput, ALabelIsFoundWholeThenByAUniquePrefix) {
    const std::vector<WidgetRecord> drawn = {widget("Blend A and B"), widget("Blend weight"), widget("Box blur"),
                                             widget("Load"),          widget("Load"),         widget("Blend")};
    EXPECT_EQ(find_widget(drawn, "Blend").widget, &drawn[5]); // the whole label beats the prefixes
    EXPECT_EQ(find_widget(drawn, "Blend w").widget, &drawn[1]);
    EXPECT_EQ(find_widget(drawn, "Bo").widget, &drawn[2]);
    EXPECT_EQ(find_widget(drawn, "Load [2]").widget, &drawn[4]);
    EXPECT_NE(find_widget(drawn, "Blend ").error.find("ambiguous: 'Blend A and B', 'Blend weight'"), std::string::npos);
    EXPECT_NE(find_widget(drawn, "Load").error.find("ambiguous"), std::string::npos);
    EXPECT_NE(find_widget(drawn, "Load [3]").error.find("only 2"), std::string::npos);
    EXPECT_NE(find_widget(drawn, "Save").error.find("no control labelled 'Save'"), std::string::npos);
}

TEST(ScriptInput, AnOpenListsItemsComeFirst) {
    const std::vector<WidgetRecord> drawn = {widget("Operation"), widget("Grayscale"), widget("Gradient", true),
                                             widget("Grayscale", true)};
    EXPECT_EQ(find_widget(drawn, "Grayscale").widget, &drawn[3]);
    EXPECT_EQ(find_widget(drawn, "Gr").error.find("ambiguous: 'Gradient', 'Grayscale'") != std::string::npos, true);
    EXPECT_EQ(find_widget(drawn, "Operation").widget, &drawn[0]); // outside the list: a click there closes it
}

} // namespace
} // namespace kc

namespace kc {
namespace {

// "key f199999999999989999" threw std::out_of_range out of the script (found by fuzz_ui_script):
// a function key is f1 ... f25, anything else is an unknown key (a script error, exit 2).
TEST(ScriptKeys, HugeOrOddFunctionKeyNumbersAreUnknownKeys) {
    EXPECT_TRUE(parse_key_chord("f12"));
    EXPECT_TRUE(parse_key_chord("f25"));
    EXPECT_FALSE(parse_key_chord("f26"));
    EXPECT_FALSE(parse_key_chord("f199999999999989999"));
    EXPECT_FALSE(parse_key_chord("f\xff"));
    EXPECT_FALSE(parse_key_chord("ctrl+f99999999999"));
}

// The script as the fuzzer runs it (tests/fuzz/fuzz_ui_script.cpp): no window, no ImGui context.
// `quick-click X,Y` aims, then clicks; `idle S` waits until skipped. Neither may touch ImGui.
TEST(ScriptVerbs, QuickClickAndIdleRunWithoutAWindow) {
    UiScript script = UiScript::from_text("t.txt", "quick-click 10,20\nidle 600\nwait 1\n");
    UiState state;
    Requests requests;
    Messages messages;
    const UiScript::Hooks hooks;
    for (int step = 0; step < 10 && !script.done(); ++step) {
        script.step(state, requests, messages, hooks);
        script.skip_pending();
    }
    EXPECT_TRUE(script.done());
}

// Typing into a ui::InputTextMultiline whose std::string grows (the kernel editor) moved the buffer
// while the wrapper still read the old one for the widget log: a heap-use-after-free that
// scripts/sanitize.sh found in the GuiKeys tests. No window: an ImGui context on its own.
TEST(Widgets, AGrowingTextBoxIsRecordedFromItsNewBuffer) {
    ImGui::CreateContext();
    ImGui::GetIO().IniFilename = nullptr; // no imgui.ini left in the test's folder
    ImGuiIO& io = ImGui::GetIO();
    io.DisplaySize = ImVec2(400, 300);
    unsigned char* pixels = nullptr;
    int w = 0, h = 0;
    io.Fonts->GetTexDataAsAlpha8(&pixels, &w, &h);
    WidgetLog log;
    AttachedWidgetLog attached(&log);
    std::string text = "ab";
    text.reserve(20); // on the heap (not in the string itself): typing 40 characters frees it
    auto grow = [](ImGuiInputTextCallbackData* data) {
        if (data->EventFlag == ImGuiInputTextFlags_CallbackResize) {
            auto* s = static_cast<std::string*>(data->UserData);
            s->resize(std::size_t(data->BufTextLen));
            data->Buf = s->data();
        }
        return 0;
    };
    const std::string typed(40, 'x');
    for (int frame = 0; frame < 5; ++frame) {
        if (frame == 3)
            for (char c : typed) io.AddInputCharacter(c);
        log.begin_frame();
        ImGui::NewFrame();
        ImGui::Begin("w");
        if (frame == 0) ImGui::SetKeyboardFocusHere();
        ui::InputTextMultiline("box", text.data(), text.capacity() + 1, ImVec2(200, 100),
                               ImGuiInputTextFlags_CallbackResize, grow, &text);
        ImGui::End();
        ImGui::EndFrame();
        log.end_frame();
    }
    ImGui::DestroyContext();
    EXPECT_EQ(text.size(), 42u);
    ASSERT_EQ(log.last_frame().size(), 1u);
    EXPECT_EQ(log.last_frame()[0].value, text);
}

} // namespace
} // namespace kc
