import hatchet as ht
from compat_fmt import num, show

gf = ht.GraphFrame.from_hpctoolkit("hpctoolkit/hatchet-cpi-database")
# Without the statement Hatchet attributes to the wrong file (HATCHET_SPEC.md 4.1, XML id 60),
# so that names and files agree between Hatchet and graphframe.
df = gf.dataframe[gf.dataframe["nid"] != 60]

# %% flat profile: group by name and sum everything (tutorial 1)
grouped = df.groupby("name").sum()
sorted_df = grouped.sort_values(by=["time"], ascending=False)
print(sorted_df.shape, [str(c) for c in sorted_df.columns])
for name, row in sorted_df.head(2).iterrows():
    print(name, num(row["time"]), num(row["time (inc)"]))
print(num(grouped.loc["162:MPIDI_CH3_Finalize", "time (inc)"]))
print(grouped.loc["main", "type"], grouped.loc["main", "line"])

# %% flat profile by module and by file
by_module = df.groupby("module").sum().sort_values(by=["time (inc)"], ascending=False)
print(len(by_module), [(m.split("/")[-1], num(t)) for m, t in by_module["time (inc)"].head(3).items()])
by_file = df.groupby("file").sum().sort_values(by=["time"], ascending=False)
print(len(by_file), [(f.split("/")[-1], num(t)) for f, t in by_file["time"].head(2).items()])

# %% numeric aggregation over groups, and the mean of the whole frame
print(df.groupby("name")[["time", "time (inc)"]].mean().loc["main"].tolist())
print(df.groupby("type")["time"].sum().to_dict())
try:
    df.groupby("name").mean()
except TypeError:
    print("TypeError: mean of text columns")

# %% missing modules (statements) filled with text
filled = df["module"].fillna("<no module>")
print(filled.value_counts().loc["<no module>"], df["module"].isna().sum())
df2 = df.fillna({"module": "<no module>"})
print(sorted(set(df2["module"]))[:1])

# %% assigning new text to type and module
df3 = df.copy()
df3.loc[df3["type"] == "S", "type"] = "statement"
df3.loc[df3["name"] == "main", "module"] = "cpi (main)"
print(sorted(set(df3["type"])), sorted(set(df3.loc[df3["name"] == "main", "module"])))
df3["file"] = df3["file"].str.replace("/tmp/dpkg-mkdeb.gouoc49UG7/src/mvapich/src/build/../", "")
print(sorted(set(df3["file"]))[:3])

# %% copying name, setting some entries to None, testing `is None`
df4 = df.copy()
df4["caller"] = df4["name"]
df4.loc[df4["time"] == 0, "caller"] = None
print(sum(v is None for v in df4["caller"]), df4["caller"].isna().sum())
print(sorted({v for v in df4["caller"] if v is not None}))

# %% counting values after a filter
kept = gf.filter(lambda row: row["time"] > 0, squash=False)
print(kept.dataframe["type"].value_counts().to_dict())
print(sorted(kept.dataframe["module"].dropna().unique().tolist()))
