def derived_metrics(directory, meta):
    return {}
