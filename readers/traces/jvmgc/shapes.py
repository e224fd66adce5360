"""The regular expressions of the line shapes (RE2 syntax, run by pyarrow over arrays).

Each runs over the messages of a subset of lines that a cheap test routed
to it (see :mod:`.parse`), never once per line from Python. Heap figures and
space transitions are read with numpy instead (:mod:`.tokens`).

Examples
--------
>>> import pyarrow as pa, pyarrow.compute as pc
>>> line = ('Safepoint "G1CollectForAllocation", Time since last: 100 ns, Reaching safepoint: '
...         '20 ns, Cleanup: 5 ns, At safepoint: 30 ns, Total: 55 ns')
>>> m = pc.extract_regex(pa.array([line]), SAFEPOINT).to_pylist()[0]
>>> m["name"], m["reach"], m["clean"], m["leave"], m["total"]
('G1CollectForAllocation', '20', '5', '', '55')
"""

from __future__ import annotations

_NUM = r"\d+(?:\.\d+)?"

#: space transitions on one line at most (read with numpy: :mod:`.tokens`, ``_transitions``)
TRANSITION_GROUPS = 3

#: JDK 16+ safepoint line (JDK 17 adds Cleanup, JDK 21 Leaving safepoint)
SAFEPOINT = (r'^Safepoint "(?P<name>[^"]*)", Time since last: (?P<since>\d+) ns, '
             r"Reaching safepoint: (?P<reach>\d+) ns,(?: Cleanup: (?P<clean>\d+) ns,)? "
             r"At safepoint: (?P<at>\d+) ns,(?: Leaving safepoint: (?P<leave>\d+) ns,)? "
             r"Total: (?P<total>\d+) ns$")
#: JDK 9-15 ``-Xlog:safepoint``
STOPPED = (r"^Total time for which application threads were stopped: (?P<total>[\d.]+) "
           r"seconds, Stopping threads took: (?P<reach>[\d.]+) seconds$")
ENTERING = r"^Entering safepoint region: (?P<name>.*)$"
APPLICATION = r"^Application time: (?P<app>[\d.]+) seconds$"

#: occupancy lines (counters), with or without GC(n):
#: ``Metaspace: 3821K used, 4480K committed, 13056K reserved`` (ZGC),
#: ``Metaspace: 3M used, 4M capacity, 4M committed, 8M reserved``,
#: `` garbage-first heap   total 131072K, used 68000K [0x...``  (gc,heap),
#: `` ZHeap           used 46M, capacity 256M, max capacity 256M``,
#: ``Heap: 256M reserved, 256M (100.00%) committed, 10M (3.91%) used`` (Epsilon),
#: ``CodeHeap 'profiled nmethods': size=2268Kb used=1269Kb max_used=1269Kb free=998Kb``
OCCUPANCY = (
    rf"^ *(?:"
    rf"(?P<m>Metaspace|Class space|class space): (?P<mu>{_NUM})(?P<muu>[BKMGT]) used,"
    rf"(?: (?P<mcap>{_NUM})(?P<mcapu>[BKMGT]) capacity,)? (?P<mc>{_NUM})(?P<mcu>[BKMGT]) "
    rf"committed, (?P<mr>{_NUM})(?P<mru>[BKMGT]) reserved"
    rf"|(?P<h>[A-Za-z][\w -]*?) +total (?P<ht>{_NUM})(?P<htu>[BKMGT]), used "
    rf"(?P<hu>{_NUM})(?P<huu>[BKMGT])(?: .*)?"
    rf"|(?P<g>[A-Za-z][\w -]*?) +used (?P<gu>{_NUM})(?P<guu>[BKMGT]), "
    rf"(?:committed|capacity) (?P<gc>{_NUM})(?P<gcu>[BKMGT])(?:,.*)?"
    rf"|Heap: (?P<er>{_NUM})(?P<eru>[BKMGT]) reserved, (?P<ec>{_NUM})(?P<ecu>[BKMGT]) "
    rf"\([\d.]+%\) committed, (?P<eu>{_NUM})(?P<euu>[BKMGT]) \([\d.]+%\) used"
    rf"|CodeHeap '(?P<ch>[^']+)': size=(?P<cs>\d+)Kb used=(?P<cu>\d+)Kb "
    rf"max_used=(?P<cm>\d+)Kb free=\d+Kb"
    rf"|(?P<flush>CodeCache flushing)"
    rf")$")

#: informational lines with GC(n) that carry no event (matched on the text
#: after ``GC(n)`` and a ``Y:``/``O:`` prefix): worker counts, CPU times, MMU,
#: load, reference counts, ZGC's per-cycle tables, pacer and trigger notes...
GC_INFO = (
    r"^ *(?:Using \d+|User=|MMU:|Load:|Soft:|Weak:|Final:|Phantom:|Mark:|NMethods:|"
    r"Relocation:|(?:Small|Medium|Large) Pages:|(?:Soft )?Max Capacity:|Min Capacity:|"
    r"Forwarding Usage:|Mark Stack Usage:|(?:Encountered|Discovered|Enqueued)\s+references:|"
    r"Pacer for|Collectable Garbage:|Free:|Adaptive CSet|Cleaned string|Trigger:|"
    r"Capacity:|Used:|Live:|Allocated:|Garbage:|Reclaimed:|Reserve:|Promoted:|Compacted:|"
    r"Mark Start +Mark End|Heap (?:before|after) GC|Age table|Desired survivor|- age|"
    r"Expand|Shrink|Attempting|Heap Statistics|Young Generation Statistics|"
    r"Old Generation Statistics|Statistics|Region|Workers|Pages:|Page|Good|Bad|"
    r"Relocated|Remembered|Eden|Survivor|Old|Humongous|Archive|Metaspace|Class|NonClass|"
    r"region size|Failure|Cancelling|Degenerated|Good progress|Trigger|Heap|Concurrent "
    r"Mark Abort|Skipping|Reference Processing|Clear|Total|Stalls|Allocation|"
    r"Immediate Garbage|Collection Set|Adaptive|Tenuring|Worker|Task|To-space exhausted|"
    r"Evacuation Failure|Age Table|Candidates +Selected|Live +Garbage|Survivor|"
    r"[A-Za-z][\w ]*:(?:\s|$))")

#: informational lines without GC(n): JVM set-up (``Version: 17.0.2``...),
#: statistics tables printed at exit (Shenandoah, ZGC), blank lines
OTHER_INFO = (r"^(?:\s*$|[A-Z][\w ./()'+-]*:(?: |$)|[A-Z][\w ]* Heap$|Failed to allocate |"
              r"Using |Initializing |Heap$|Heap |Leaving "
              r"safepoint region$|\s+\S.*\s(?:us|ms|ops/s|MB/s|threads|%)$|\s+[A-Za-z].*$|"
              r"=+|All times are|all workers|Dividing the|Pause |Concurrent |Allocation "
              r"pacing|Under allocation|Free: |Trigger: |Pacer for |Min heap|Heuristics "
              r"ergonomically|Periodic GC|Soft Max|Compressed|Narrow klass|CDS|Mark Stack|"
              r"Attempting|Allocation Stall|\s+\S|\S.*\s\d+ us(?:,.*)?$)")

#: header facts, parsed from the few lines that match (Python per line)
HEADER = (r"^(?:Using (?P<using>[^,;:]+?)\s*$|Version: (?P<version>\S+)|"
          r"Heap [Rr]egion [Ss]ize: (?P<region>\d+)(?P<regionu>[BKMGT])|"
          r"(?:Heap )?Max Capacity: (?P<max>\d+)(?P<maxu>[BKMGT])|"
          r"Heap address: \S+ size: (?P<addr>\d+) MB|"
          r"(?P<z>Initializing The Z Garbage Collector)|"
          r"(?P<legacy>Using legacy single-generation mode))")
