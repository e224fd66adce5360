import json
import warnings

import hatchet as ht

with open("literal/hatchet_graph_literal.json") as f:
    gf = ht.GraphFrame.from_literal(json.load(f))
cpi = ht.GraphFrame.from_hpctoolkit("hpctoolkit/hatchet-cpi-database")

# %% several metrics, precision, depth
print(gf.tree(metric_column=["time (inc)", "time"], precision=1, depth=3, render_header=False))

# %% name column, long names cut to 39 characters unless expand_name
gf.dataframe["long"] = gf.dataframe["name"].map(lambda n: (n + "_") * 8)
print(gf.tree(name_column="long", depth=2, render_header=False))
print(gf.tree(name_column="long", expand_name=True, depth=2, render_header=False))

# %% annotation and context columns
gf.dataframe["calls"] = gf.dataframe["time"].map(lambda t: int(t // 5))
print(gf.tree(annotation_column="calls", depth=3, render_header=False))
print(cpi.tree(context_column="module", depth=3, rank=2, render_header=False))
print(cpi.tree(context_column=None, depth=3, render_header=False))

# %% the header comes first, the tree below it
with_header = gf.tree(depth=1)
without = gf.tree(depth=1, render_header=False)
print(with_header.endswith(without), len(with_header.splitlines()) > len(without.splitlines()))

# %% keyword names of older Hatchet versions
# Hatchet 2024 refuses its own old keyword names with a ValueError; graphframe does the
# same under graphframe.options.hatchet_compat (which the hatchet import turns on) and
# otherwise renames them with a DeprecationWarning (docs/guide/coming-from-hatchet.md).
for old, value in (("metric", "time (inc)"), ("name", "name"), ("expand_names", True),
                   ("context", "file"), ("invert_colors", True)):
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        try:
            text = gf.tree(render_header=False, depth=1, **{old: value})
            print(old, "->", text.splitlines()[0], [w.category.__name__ for w in caught])
        except (TypeError, ValueError) as exc:
            # the built-in class a Hatchet user catches (graphframe's ArgumentError is a ValueError)
            print(old, "->", "ValueError" if isinstance(exc, ValueError) else type(exc).__name__)
