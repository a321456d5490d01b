// A Qt application object for the tests (created once, on first use) and waiting helpers.
#pragma once

#include <QCoreApplication>
#include <QElapsedTimer>
#include <functional>
#include <string>

namespace pegsim::gui::test {

// QApplication when a display is usable (GUI tests), else QCoreApplication.
QCoreApplication& qt_app(bool widgets = false);

// Processes events until pred() holds or `ms` pass; returns pred().
bool wait_until(const std::function<bool()>& pred, int ms = 20000);

std::string scene_path(const std::string& name);

}  // namespace pegsim::gui::test
