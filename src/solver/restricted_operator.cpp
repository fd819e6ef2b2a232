// Z Z^T A Z Z^T on full-length vectors; see restricted_operator.hpp.
#include "restricted_operator.hpp"

#include <Teuchos_CommHelpers.hpp>

#include <stdexcept>
#include <string>
#include <utility>

namespace grains::solver_detail {

RestrictedOperator::RestrictedOperator(RCP<const Operator> A, const std::vector<char>& free_set)
    : A_(std::move(A)), free_(free_set) {}

void RestrictedOperator::apply(const MultiVector& X, MultiVector& Y, Teuchos::ETransp /*mode*/,
                               Scalar alpha, Scalar beta) const {
  using Index = long long;
  const std::size_t columns = X.getNumVectors();
  const Index n = static_cast<Index>(X.getLocalLength());
  if (static_cast<std::size_t>(n) != free_.size() || Y.getLocalLength() != X.getLocalLength() ||
      Y.getNumVectors() != columns) {
    throw std::invalid_argument("RestrictedOperator: vector of " + std::to_string(n) +
                                " local rows for a free-set mask of " +
                                std::to_string(free_.size()));
  }
  if (in_.is_null() || in_->getNumVectors() != columns) {
    in_ = rcp(new MultiVector(A_->getDomainMap(), columns, false));
    out_ = rcp(new MultiVector(A_->getRangeMap(), columns, false));
  }
  {
    const auto x = X.getLocalViewHost(Tpetra::Access::ReadOnly);
    auto in = in_->getLocalViewHost(Tpetra::Access::OverwriteAll);
    for (std::size_t j = 0; j < columns; ++j) {
#pragma omp parallel for schedule(static)
      for (Index i = 0; i < n; ++i) in(i, j) = free_[static_cast<std::size_t>(i)] ? x(i, j) : 0.0;
    }
  }
  A_->apply(*in_, *out_);
  ++applies_;
  const auto out = out_->getLocalViewHost(Tpetra::Access::ReadOnly);
  if (columns == 1) {
    const auto in = in_->getLocalViewHost(Tpetra::Access::ReadOnly);
    double local = 0.0;
#pragma omp parallel for schedule(static) reduction(+ : local)
    for (Index i = 0; i < n; ++i)
      local += free_[static_cast<std::size_t>(i)] ? in(i, 0) * out(i, 0) : 0.0;
    Teuchos::reduceAll(*X.getMap()->getComm(), Teuchos::REDUCE_SUM, local,
                       Teuchos::outArg(curvature_));
  }
  auto y = Y.getLocalViewHost(Tpetra::Access::ReadWrite);
  for (std::size_t j = 0; j < columns; ++j) {
#pragma omp parallel for schedule(static)
    for (Index i = 0; i < n; ++i) {
      // beta == 0 overwrites Y (NaNs in Y are ignored, as Tpetra requires).
      const double old = beta == 0.0 ? 0.0 : beta * y(i, j);
      y(i, j) = free_[static_cast<std::size_t>(i)] ? alpha * out(i, j) + old : old;
    }
  }
}

}  // namespace grains::solver_detail
