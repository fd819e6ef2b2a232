"""pvbatch script, run on several ranks (mpirun -n N pvbatch): opens a
multi-rank grains run in parallel and checks that each ParaView rank read
its own pieces: every body point reaches ParaView rank p only if grains'
rank p wrote it (point array `rank`), and every rank has bodies. Then
renders the view (image compositing over the ranks) to a PNG.
Prints "parallel check: passed" when all holds.
Usage: mpirun -n N pvbatch check_parallel.py RUN_DIR SCRIPTS_DIR OUTPUT.png
"""
import sys

import numpy as np
from paraview import servermanager as sm
from paraview import simple as pv
from vtkmodules.util import numpy_support as ns

sys.path.insert(0, sys.argv[2])
import grains_view  # noqa: E402

ranks = sm.vtkProcessModule.GetProcessModule().GetNumberOfLocalPartitions()
grains = grains_view.GrainsView(sys.argv[1], field="rank", size=(800, 600))
# Tag each drawn vertex with the ParaView rank that drew it.
tagged = pv.ProgrammableFilter(Input=grains.shapes)
tagged.Script = """
from vtkmodules.vtkParallelCore import vtkMultiProcessController
from vtkmodules.util import numpy_support as ns
import numpy as np
out = self.GetOutput()
out.ShallowCopy(self.GetInput())
me = vtkMultiProcessController.GetGlobalController().GetLocalProcessId()
tag = ns.numpy_to_vtk(np.full(out.GetNumberOfPoints(), me, dtype=np.int32), deep=1)
tag.SetName("paraview_rank")
out.GetPointData().AddArray(tag)
"""
failed = []
for t in grains.times:
    tagged.UpdatePipeline(t)
    data = sm.Fetch(tagged)
    written_by = ns.vtk_to_numpy(data.GetPointData().GetArray("rank"))
    read_by = ns.vtk_to_numpy(data.GetPointData().GetArray("paraview_rank"))
    counts = [int((read_by == p).sum()) for p in range(ranks)]
    if len(written_by) == 0 or (written_by != read_by).any() or 0 in counts:
        failed.append(f"t = {t:g}: vertices per ParaView rank {counts}, "
                      f"{int((written_by != read_by).sum())} read by another rank than their writer")
print(f"{ranks} ParaView ranks, {len(grains.times)} steps; last step: vertices per rank {counts}")
grains.colour_range(0, ranks - 1)
grains.frame("iso", [grains.times[-1]])
grains.show_time(grains.times[-1])
grains.save(sys.argv[3])
for line in failed:
    print("FAIL:", line)
# No sys.exit here: leaving a parallel pvbatch that way crashes its
# finalisation; the calling test reads the FAIL lines.
print("parallel check:", "failed" if failed else "passed")
