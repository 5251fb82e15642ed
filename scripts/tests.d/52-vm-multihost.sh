#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# One fabric over two hosts (issue 25, docs/multihost.md): two guests of
# the stock 6.1 joined by a virtual wire (scripts/vm2.sh), a 4x4 torus
# split in two, every cross-host pair pinged, TCP across the cut, the
# link counters of both added up against a one-guest run, one guest
# leaving, and the wire decoded by tshark (scripts/multihost-test.sh).
cd "${MF_TOP:-.}"
bash scripts/multihost-test.sh
