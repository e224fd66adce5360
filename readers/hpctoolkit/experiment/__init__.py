"""The old HPCToolkit layout: ``experiment.xml`` plus metric files (see :mod:`graphframe_readers.hpctoolkit`)."""
