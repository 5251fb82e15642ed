#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# KUnit suites under UML, both configurations (kunit/default.kunitconfig
# and kunit/kasan.kunitconfig), via scripts/kunit.sh: one TAP line per
# test case and parameter, plus one per configuration for a kernel log
# free of KASAN/lockdep/BUG/WARNING reports.
#   MF_KUNIT_CONFIGS="default" to run only one.
# Named 60-uml, not 60-kunit: scripts/test.sh selects suites by substring
# and "unit" (the host unit tests) must not start two kernel builds.
cd "${MF_TOP:-.}"
# shellcheck disable=SC2086
bash scripts/kunit.sh ${MF_KUNIT_CONFIGS:-default kasan}
