#!/usr/bin/env bash
# Builds pegsim with AddressSanitizer and UndefinedBehaviorSanitizer (the sanitize preset:
# clang, no GUI, in build/sanitize) and runs the non-GUI tests under them. Any invalid memory
# access, leak or undefined behaviour fails the test that caused it.
#
#   scripts/sanitize.sh          every non-GUI test but the long runs below (what CI runs)
#   scripts/sanitize.sh --all    every non-GUI test
set -euo pipefail
cd "$(dirname "$0")/.."
all=0
case "${1:-}" in
  "") ;;
  --all) all=1 ;;
  *) echo "sanitize.sh: unknown argument '$1' (expected nothing or --all)" >&2; exit 2 ;;
esac

# The suite's longest runs, 40-270 s each under the sanitizers (hundreds of steps of piles,
# grasps, sweeps and pours: half the sanitized suite's time); the release suite runs them, and
# shorter tests take the same solvers, formulations and readers here.
long_runs=(
  NcpPile.PathSolvesPour20Steps60And93FromTurnedPolygons
  ImplicitPile.TheSpherePileFormsWithoutOverlapInFewNewtonIterationsAStep
  Experiments.GearGraspSucceedsOnlyFromBelowTheCentre
  ImplicitStep.Example3ConvergesToTheAnalyticDeflectionWithTheStepSize
  SweepPhysics.TheGearGraspSweepFindsTheExperimentsOutcomes
  PgsStack.NncgKeepsStack10AtRest
  CrossConstraintGuard.TheThrownPourFinishes
  CompareSolvers.RecordedCascadingPolyhedraProblemsAreSolvedByTheRobustMethods
  RobotScenes.PandaPushesTheBlockAlongTheTable
  JointDrives.SchurFormAndMixedLcpAgree
  SparseAssembly.TheMixedFormKeepsTheContactsSparse
  Grasp2D.ReducedExperimentPegTracksItsTruthAndTheSmTrapsFingertips
)

scripts/install-deps.sh
cmake --preset sanitize >/dev/null
cmake --build --preset sanitize
if [ "$all" -eq 1 ]; then
  ctest --preset sanitize -j2
else
  ctest --preset sanitize -j2 -E "^($(IFS='|'; echo "${long_runs[*]}"))\$"
fi
