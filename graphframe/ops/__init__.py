"""Operations on GraphFrames: pure functions over the graph arrays and dataframe."""
