"""The old HPCToolkit layout: ``experiment.xml`` plus metric files (see :mod:`readers.hpctoolkit`)."""
