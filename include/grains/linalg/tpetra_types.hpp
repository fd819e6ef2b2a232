#pragma once
// The Tpetra instantiation used everywhere (Debian's Trilinos 13.2 builds the
// Serial node with <double, int, long long>).
#include <Teuchos_RCP.hpp>
#include <Tpetra_CrsMatrix.hpp>
#include <Tpetra_Map.hpp>
#include <Tpetra_MultiVector.hpp>
#include <Tpetra_Operator.hpp>
#include <Tpetra_Vector.hpp>

namespace grains {

using Scalar = double;
using LocalOrdinal = Tpetra::Map<>::local_ordinal_type;
using GlobalOrdinal = Tpetra::Map<>::global_ordinal_type;
using Node = Tpetra::Map<>::node_type;

using Map = Tpetra::Map<LocalOrdinal, GlobalOrdinal, Node>;
using Vector = Tpetra::Vector<Scalar, LocalOrdinal, GlobalOrdinal, Node>;
using MultiVector = Tpetra::MultiVector<Scalar, LocalOrdinal, GlobalOrdinal, Node>;
using Operator = Tpetra::Operator<Scalar, LocalOrdinal, GlobalOrdinal, Node>;
using CrsMatrix = Tpetra::CrsMatrix<Scalar, LocalOrdinal, GlobalOrdinal, Node>;
using Comm = Teuchos::Comm<int>;

using Teuchos::RCP;
using Teuchos::rcp;

}  // namespace grains
