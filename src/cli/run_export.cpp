#include "cli/run_export.hpp"

#include <fstream>
#include <memory>
#include <stdexcept>

namespace pegsim::cli {
namespace {

// A body name as a file name: path separators and control characters become '_'.
std::string file_stem(const std::string& name, std::size_t index) {
  std::string out;
  for (char c : name)
    out += (c == '/' || c == '\\' || static_cast<unsigned char>(c) < 32) ? '_' : c;
  if (out.empty() || out == "." || out == ".." || out == "contacts" || out == "sm_traps")
    out = "body" + std::to_string(index) + (out.empty() ? "" : "_" + out);
  return out;
}

// A CSV field: quoted when it holds a comma, a quote or a line break.
std::string csv_field(const std::string& text) {
  if (text.find_first_of(",\"\n\r") == std::string::npos) return text;
  std::string out = "\"";
  for (char c : text) out += c == '"' ? std::string("\"\"") : std::string(1, c);
  return out + '"';
}

constexpr std::int64_t kBlock = 2048;  // frames read at once

}  // namespace

std::vector<std::filesystem::path> export_csv(const RunReader& reader,
                                              const std::filesystem::path& dir, bool overwrite) {
  const RunHeader& h = reader.header();
  std::vector<std::filesystem::path> files;
  for (std::size_t b = 0; b < h.bodies.size(); ++b)
    files.push_back(dir / (file_stem(h.bodies[b].name, b) + ".csv"));
  files.push_back(dir / "contacts.csv");
  files.push_back(dir / "sm_traps.csv");
  for (const auto& f : files)
    if (!overwrite && std::filesystem::exists(f))
      throw std::runtime_error(f.string() + ": exists; not overwriting it (use --force)");
  std::error_code ec;
  std::filesystem::create_directories(dir, ec);
  if (!std::filesystem::is_directory(dir))
    throw std::runtime_error(dir.string() + ": cannot create the folder");

  std::vector<std::unique_ptr<std::ofstream>> out;
  for (const auto& f : files) {
    out.push_back(std::make_unique<std::ofstream>(f, std::ios::out | std::ios::trunc));
    if (!*out.back()) throw std::runtime_error(f.string() + ": cannot be created");
    out.back()->precision(17);
  }
  for (std::size_t b = 0; b < h.bodies.size(); ++b)
    *out[b] << "frame,time,x,y,z,qw,qx,qy,qz,fx,fy,fz,tx,ty,tz\n";
  std::ofstream& contacts = *out[out.size() - 2];
  std::ofstream& traps = *out.back();
  auto body = [&](int i) {
    return i >= 0 && static_cast<std::size_t>(i) < h.bodies.size() ? csv_field(h.bodies[i].name)
                                                                   : std::to_string(i);
  };
  contacts << "frame,time,body_a,body_b,feature_a,index_a,feature_b,index_b,px,py,pz,nx,ny,nz,"
              "gap,normal_impulse,fx,fy,fz,sliding,primary,enforced,duplicate_of\n";
  traps << "frame,time,body,feature,index,other_body,facets,contacts\n";

  for (std::int64_t first = 0; first < reader.frame_count(); first += kBlock) {
    const std::int64_t n = std::min(kBlock, reader.frame_count() - first);
    for (const RunFrame& f : reader.frames(first, n)) {
      for (std::size_t b = 0; b < f.bodies.size(); ++b) {
        const Vec3& p = f.bodies[b].position;
        const Quat& q = f.bodies[b].orientation;
        const Vec3& force = f.bodies[b].force;  // the external wrench the step applied
        const Vec3& torque = f.bodies[b].torque;
        *out[b] << f.index << ',' << f.time << ',' << p.x() << ',' << p.y() << ',' << p.z() << ','
                << q.w() << ',' << q.x() << ',' << q.y() << ',' << q.z() << ',' << force.x() << ','
                << force.y() << ',' << force.z() << ',' << torque.x() << ',' << torque.y() << ','
                << torque.z() << '\n';
      }
      for (const RecordedContact& rc : f.contacts) {
        const Contact& c = rc.contact;
        contacts << f.index << ',' << f.time << ',' << body(c.body_a) << ',' << body(c.body_b)
                 << ',' << to_string(c.feature_a.kind) << ',' << c.feature_a.index << ','
                 << to_string(c.feature_b.kind) << ',' << c.feature_b.index << ',' << c.point_a.x()
                 << ',' << c.point_a.y() << ',' << c.point_a.z() << ',' << c.normal.x() << ','
                 << c.normal.y() << ',' << c.normal.z() << ',' << c.gap << ',' << rc.normal_impulse
                 << ',' << rc.friction_impulse.x() << ',' << rc.friction_impulse.y() << ','
                 << rc.friction_impulse.z() << ',' << int(rc.sliding) << ',' << int(c.primary())
                 << ',' << int(rc.enforced) << ',' << rc.duplicate_of << '\n';
      }
      for (const SmTrap& t : f.sm_traps) {
        // The facets are the other body's features of the trap's contacts (index in the frame).
        std::string facets, members;
        for (int k = 0; k < t.count; ++k) {
          const int i = f.sm_trap_contacts[t.first + k];
          const Contact& c = f.contacts[i].contact;
          const Feature& facet = c.body_a == t.body ? c.feature_b : c.feature_a;
          if (k > 0) facets += ';', members += ';';
          facets.append(to_string(facet.kind)).append(" ").append(std::to_string(facet.index));
          members += std::to_string(i);
        }
        traps << f.index << ',' << f.time << ',' << body(t.body) << ',' << to_string(t.feature.kind)
              << ',' << t.feature.index << ',' << body(t.other_body) << ',' << facets << ','
              << members << '\n';
      }
    }
  }
  for (std::size_t i = 0; i < out.size(); ++i) {
    out[i]->close();
    if (!*out[i]) throw std::runtime_error(files[i].string() + ": write failed");
  }
  return files;
}

}  // namespace pegsim::cli
