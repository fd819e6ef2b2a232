#pragma once
// The contact-force network as a VTK series beside the bodies
// (output.contact_network, docs/visualisation.md):
//   dir/contacts.pvd, dir/vtk/contacts_<step>.pvtp, dir/vtk/contacts_<step>_r<rank>.vtp
// One polyline per force-carrying contact (centre a -> contact point ->
// centre b) with cell data normal_force, tangential_force, force (normal
// force vector on body b), normal, gap, gid_a, gid_b, wall.
#include "grains/constraint/contact_network.hpp"
#include "grains/io/vtk_series_writer.hpp"

#include <vtkPolyData.h>
#include <vtkSmartPointer.h>

#include <string>
#include <vector>

namespace grains {

/// This rank's lines as PolyData (empty lines: the same arrays, no cells).
vtkSmartPointer<vtkPolyData> makeNetworkPolyData(const std::vector<NetworkLine>& lines);

class ContactNetworkWriter {
 public:
  /// Collective, as VtkSeriesWriter.
  ContactNetworkWriter(const std::string& dir, MPI_Comm comm, bool append_existing = false)
      : series_(dir, comm, append_existing, VtkEncoding::BinaryCompressed, "contacts") {}
  /// Collective: every rank passes its own lines.
  void write(long step, double time, const std::vector<NetworkLine>& lines) {
    series_.writePolyData(step, time, makeNetworkPolyData(lines));
  }
  const VtkSeriesWriter& series() const { return series_; }

 private:
  VtkSeriesWriter series_;
};

}  // namespace grains
