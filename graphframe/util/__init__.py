"""Small helpers offered under the module paths Hatchet users import them from
(``hatchet.util.profiler`` -> :mod:`graphframe.util.profiler`)."""
