// Seed 001's Example 2 (docs/geometrically-implicit.md): the unit sphere on two fixed spheres
// (radius 10 at the origin, contact 1; radius 9 at (0, 11.4, 0), contact 2) under the constant
// wrench (1, 2.6, -9.81, 0, 0, 0), mu = 0.2, h = 0.01, from rest touching both. The paper gives
// no mass or inertia: m = 1, I = 0.4 (a solid sphere). Under the geometrically implicit step
// contact 1 slides throughout, contact 2 rolls, then slides, and the contacts separate (the
// paper's Fig. 4-5, about 3.0, 3.2 and 3.6 s); the same scene under Stewart-Trinkle beside it.
// The implicit case runs implicit_step directly with the paper's ellipsoidal friction law,
// e = (1, 1, 0.3) (in a scene: the ball's torsion_radius 0.3, docs/geometrically-implicit.md).
#include <cmath>

#include "cli/experiments/experiment_files.hpp"
#include "cli/experiments/experiment_list.hpp"
#include "engine/dynamics/simulator.hpp"
#include "engine/formulation/implicit_step.hpp"

namespace pegsim::cli {
namespace {

using nlohmann::json;

const Vec3 kWrench(1.0, 2.6, -9.81);

struct Events {
  double slides2 = -1.0, leaves1 = -1.0, leaves2 = -1.0;  // s; -1: not seen
  double worst_penetration = 0.0;                         // m, at the ends of steps
  bool failed = false;
};

void add_row(CsvTable& csv, const char* method, double t, const Vec3& v, const double pn[2],
             const double pf[2], const bool sliding[2], double h) {
  csv.add({method, CsvTable::number(t), CsvTable::number(v.x()), CsvTable::number(v.y()),
           CsvTable::number(v.z()), CsvTable::number(pn[0] / h), CsvTable::number(pf[0] / h),
           CsvTable::number(pn[1] / h), CsvTable::number(pf[1] / h), sliding[0] ? "1" : "0",
           sliding[1] ? "1" : "0"});
}

void note_events(Events& e, double t, const double pn[2], const bool sliding[2]) {
  if (e.slides2 < 0.0 && pn[1] > 0.0 && sliding[1]) e.slides2 = t;
  if (e.leaves1 < 0.0 && pn[0] == 0.0) e.leaves1 = t;
  if (e.leaves2 < 0.0 && pn[1] == 0.0) e.leaves2 = t;
}

// The geometrically implicit step (seed 001) with the paper's e = (1, 1, 0.3).
Events run_implicit(double duration, CsvTable& csv) {
  ImplicitBody big, small, ball;
  big.is_static = small.is_static = true;
  big.shape.radii = Vec3::Constant(10.0);
  small.shape.radii = Vec3::Constant(9.0);
  small.position = Vec3(0.0, 11.4, 0.0);
  ball.inertia = Mat3::Identity() * 0.4;
  ball.position = Vec3(0.0, 6.62105263157895, 8.78417110772903);
  ball.force = kWrench;
  std::vector<ImplicitBody> bodies{big, small, ball};
  const std::vector<ImplicitPair> pairs{{0, 2, 0.2, Vec3(1.0, 1.0, 0.3), {}},
                                        {1, 2, 0.2, Vec3(1.0, 1.0, 0.3), {}}};
  ImplicitStepOptions o;
  o.h = 0.01;
  o.gravity.setZero();
  o.max_halvings = 0;  // the paper's fixed step: a step Newton cannot answer at h ends the run
  std::vector<ImplicitContact> c;
  Events e;
  const long steps = std::lround(duration / o.h);
  for (long k = 1; k <= steps; ++k) {
    if (!implicit_step(bodies, pairs, c, o).solved) {
      e.failed = true;
      break;
    }
    double pn[2], pf[2];
    bool sliding[2];
    for (int i = 0; i < 2; ++i) {
      pn[i] = c[std::size_t(i)].gap > 1e-9 ? 0.0 : c[std::size_t(i)].p_n;
      pf[i] = std::hypot(c[std::size_t(i)].p_t, c[std::size_t(i)].p_o);
      sliding[i] = c[std::size_t(i)].sigma > 1e-6;
      e.worst_penetration = std::max(e.worst_penetration, -c[std::size_t(i)].gap);
    }
    note_events(e, k * o.h, pn, sliding);
    add_row(csv, "geometrically-implicit", k * o.h, bodies[2].velocity, pn, pf, sliding, o.h);
  }
  return e;
}

// Stewart-Trinkle through the simulator, the ball as an exact sphere.
Events run_stewart_trinkle(double duration, CsvTable& csv) {
  Model model;
  State state;
  auto fixed = [&](const char* name, double radius, const Vec3& at) {
    Body b;
    b.name = name;
    b.shape = Shape::sphere(radius);
    b.is_static = true;
    b.mu = 0.2;
    model.bodies.push_back(b);
    BodyState s;
    s.position = at;
    state.bodies.push_back(s);
  };
  fixed("sphere1", 10.0, Vec3::Zero());
  fixed("sphere2", 9.0, Vec3(0.0, 11.4, 0.0));
  Body ball;
  ball.name = "ball";
  ball.shape = Shape::sphere(1.0);
  ball.mass = 1.0;
  ball.inertia = Mat3::Identity() * 0.4;
  ball.mu = 0.2;
  model.bodies.push_back(ball);
  BodyState s;
  s.position = Vec3(0.0, 6.62105263157895, 8.78417110772903);
  state.bodies.push_back(s);
  Settings settings;
  settings.h = 0.01;
  settings.gravity.setZero();
  Simulator sim(model, state, settings);
  Events e;
  const long steps = std::lround(duration / settings.h);
  for (long k = 1; k <= steps; ++k) {
    sim.apply_wrench(2, kWrench, Vec3::Zero());
    const StepReport& r = sim.step();
    if (r.failed) {
      e.failed = true;
      break;
    }
    // Per fixed sphere: the normal impulse, friction and slip of its contact(s) with the ball.
    double pn[2] = {0.0, 0.0}, pf[2] = {0.0, 0.0};
    bool sliding[2] = {false, false};
    for (std::size_t c = 0; c < r.contacts.size(); ++c) {
      const int which = r.contacts[c].body_a == 2 ? r.contacts[c].body_b : r.contacts[c].body_a;
      if (which > 1 || !r.enforced[c]) continue;
      pn[which] += r.normal_impulse[c];
      pf[which] += r.friction_impulse[c].norm();
      sliding[which] = sliding[which] || (r.sliding[c] && r.normal_impulse[c] > 0.0);
      e.worst_penetration = std::max(e.worst_penetration, -r.contacts[c].gap);
    }
    note_events(e, r.time, pn, sliding);
    add_row(csv, "stewart-trinkle", r.time, sim.state().bodies[2].velocity, pn, pf, sliding,
            settings.h);
  }
  return e;
}

json run_sphere_on_spheres(const ExperimentOptions& options) {
  const double duration = options.reduced ? 3.8 : 4.5;
  CsvTable csv({"formulation", "t", "v_x", "v_y", "v_z", "normal_force_1", "friction_1",
                "normal_force_2", "friction_2", "sliding_1", "sliding_2"});
  json table = json::array();
  for (const char* method : {"geometrically-implicit", "stewart-trinkle"}) {
    const Events e = std::string(method) == "stewart-trinkle" ? run_stewart_trinkle(duration, csv)
                                                              : run_implicit(duration, csv);
    table.push_back({{"formulation", method},
                     {"contact2_slides_s", e.slides2},
                     {"contact1_leaves_s", e.leaves1},
                     {"contact2_leaves_s", e.leaves2},
                     {"worst_penetration_m", e.worst_penetration},
                     {"failed", e.failed}});
  }
  json summary;
  summary["setup"] =
      "unit sphere (m = 1, I = 0.4) on spheres of radius 10 at the origin and 9 at (0, 11.4, "
      "0), wrench (1, 2.6, -9.81), mu = 0.2, h = 0.01; implicit: e = (1, 1, 0.3); "
      "Stewart-Trinkle: Coulomb's linearized cone";
  summary["paper"] = {
      {"contact2_slides_s", 3.0}, {"contact1_leaves_s", 3.2}, {"contact2_leaves_s", 3.6}};
  summary["duration_s"] = duration;
  summary["table"] = table;
  summary["files"] = {write_experiment_file(options, "sphere_on_spheres.csv", csv.text()).string()};
  return summary;
}

}  // namespace

Experiment sphere_on_spheres_experiment() {
  return {"sphere_on_spheres", "seed 001 §6.2 (Example 2), Fig. 4-5",
          "a sphere rolling, sliding and leaving two fixed spheres: events under the "
          "geometrically implicit step and Stewart-Trinkle",
          run_sphere_on_spheres};
}

}  // namespace pegsim::cli
