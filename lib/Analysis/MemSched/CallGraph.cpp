//===- CallGraph.cpp - the functions of a module and who may call whom ----===//

#include "Analysis/MemSched/CallGraph.h"

#include "mlir/IR/SymbolTable.h"
#include "llvm/ADT/DenseSet.h"

using namespace mlir;
using namespace mlir::memsched;

Operation *mlir::memsched::resolveCallee(CallOpInterface call) {
  // resolveCallable() answers the defining op of a callee value: a
  // func.constant names its function.
  if (auto value = dyn_cast<Value>(call.getCallableForCallee())) {
    auto constant = value.getDefiningOp<func::ConstantOp>();
    return constant ? SymbolTable::lookupNearestSymbolFrom(
                          constant, constant.getValueAttr())
                    : nullptr;
  }
  Operation *callee = call.resolveCallable();
  return isa_and_nonnull<CallableOpInterface>(callee) ? callee : nullptr;
}

/// The function `call` resolves to, or null.
static func::FuncOp getDirectCallee(CallOpInterface call) {
  return dyn_cast_or_null<func::FuncOp>(resolveCallee(call));
}

/// Calls `fn` on each symbol reference among `op`'s attributes. Ops that keep
/// their inherent attributes as properties would build them all (segment
/// sizes included) to answer getAttrDictionary(): read the inherent ones by
/// name instead, skipping the segment sizes, which hold no symbol.
static void walkSymbolRefs(Operation *op,
                           function_ref<void(SymbolRefAttr)> fn) {
  auto visit = [&](Attribute attr) {
    if (attr)
      attr.walk(fn);
  };
  std::optional<RegisteredOperationName> info = op->getRegisteredInfo();
  if (!info) {
    visit(op->getAttrDictionary());
    return;
  }
  for (StringAttr name : info->getAttributeNames()) {
    if (name.getValue() == "operandSegmentSizes" ||
        name.getValue() == "resultSegmentSizes")
      continue;
    if (std::optional<Attribute> attr = op->getInherentAttr(name.getValue()))
      visit(*attr);
  }
  visit(op->getRawDictionaryAttrs());
}

ModuleCallGraph::ModuleCallGraph(Operation *module) {
  module->walk<WalkOrder::PreOrder>([&](Operation *op) {
    if (auto func = dyn_cast<func::FuncOp>(op)) {
      index[func] = funcs.size();
      funcs.push_back(func);
      return WalkResult::skip();
    }
    return WalkResult::advance();
  });
  // Symbol uses other than the callee of a call that resolves to the
  // function: the function's address may flow anywhere.
  SymbolTableCollection symbols;
  module->walk([&](Operation *op) {
    if (isa<func::FuncOp>(op))
      return;
    func::FuncOp direct;
    bool directKnown = false, calleeSeen = false;
    walkSymbolRefs(op, [&](SymbolRefAttr ref) {
      if (!directKnown) {
        directKnown = true;
        if (auto call = dyn_cast<CallOpInterface>(op))
          direct = getDirectCallee(call);
      }
      auto func = dyn_cast_or_null<func::FuncOp>(
          symbols.lookupNearestSymbolFrom(op, ref));
      if (!func || !index.count(func))
        return;
      // The callee reference of a direct call is a call, once.
      if (func == direct && !calleeSeen) {
        calleeSeen = true;
        return;
      }
      addressTaken.insert(func);
    });
  });
  edges.resize(funcs.size());
  for (auto [i, func] : llvm::enumerate(funcs)) {
    SmallVector<Edge, 4> &list = edges[i];
    func.walk([&](CallOpInterface call) {
      for (func::FuncOp callee : getPossibleCallees(call)) {
        unsigned j = index.lookup(callee);
        if (!llvm::any_of(list, [&](const Edge &e) { return e.callee == j; }))
          list.push_back({j, call});
      }
    });
  }
  computeComponents();
}

SmallVector<func::FuncOp>
ModuleCallGraph::getPossibleCallees(CallOpInterface call) const {
  SmallVector<func::FuncOp> result;
  Operation *resolved = resolveCallee(call);
  auto direct = dyn_cast_or_null<func::FuncOp>(resolved);
  if (direct && index.count(direct))
    result.push_back(direct);
  // A call that resolves goes there (an external function handed a
  // function value may call it back); one that does not may reach any
  // function whose address is taken, of the callee value's type if any.
  if (resolved &&
      !(direct && direct.isExternal() &&
        llvm::any_of(call->getOperandTypes(), llvm::IsaPred<FunctionType>)))
    return result;
  FunctionType type;
  if (!resolved)
    if (auto value = dyn_cast<Value>(call.getCallableForCallee()))
      type = dyn_cast<FunctionType>(value.getType());
  for (func::FuncOp func : funcs)
    if (addressTaken.contains(func) && !func.isExternal() &&
        (!type || func.getFunctionType() == type))
      result.push_back(func);
  return result;
}

void ModuleCallGraph::computeComponents() {
  // Tarjan's strongly connected components, iteratively; the depth-first
  // walk's finishing order is the callees-first order.
  unsigned n = funcs.size();
  constexpr unsigned kUnvisited = ~0u;
  SmallVector<unsigned> number(n, kUnvisited), low(n, 0);
  SmallVector<bool> onStack(n, false);
  SmallVector<unsigned> stack;
  component.assign(n, 0);
  onCycle.assign(n, false);
  unsigned counter = 0, components = 0;
  for (unsigned root = 0; root < n; ++root) {
    if (number[root] != kUnvisited)
      continue;
    SmallVector<std::pair<unsigned, unsigned>> dfs{{root, 0}};
    number[root] = low[root] = counter++;
    stack.push_back(root);
    onStack[root] = true;
    while (!dfs.empty()) {
      auto &[v, next] = dfs.back();
      if (next < edges[v].size()) {
        unsigned w = edges[v][next++].callee;
        if (w == v)
          onCycle[v] = true;
        if (number[w] == kUnvisited) {
          number[w] = low[w] = counter++;
          stack.push_back(w);
          onStack[w] = true;
          dfs.push_back({w, 0});
        } else if (onStack[w]) {
          low[v] = std::min(low[v], number[w]);
        }
        continue;
      }
      unsigned done = v;
      dfs.pop_back();
      order.push_back(funcs[done]);
      if (!dfs.empty())
        low[dfs.back().first] = std::min(low[dfs.back().first], low[done]);
      if (low[done] != number[done])
        continue;
      SmallVector<unsigned> members;
      unsigned w;
      do {
        w = stack.pop_back_val();
        onStack[w] = false;
        component[w] = components;
        members.push_back(w);
      } while (w != done);
      if (members.size() > 1)
        for (unsigned m : members)
          onCycle[m] = true;
      ++components;
    }
  }
}

bool ModuleCallGraph::isRecursive(func::FuncOp func) const {
  auto it = index.find(func);
  return it != index.end() && onCycle[it->second];
}

std::string ModuleCallGraph::describeCycle(func::FuncOp func) const {
  if (!isRecursive(func))
    return "";
  unsigned start = index.lookup(func);
  // Breadth-first within the component, back to `start`.
  DenseMap<unsigned, std::pair<unsigned, Operation *>> parent;
  SmallVector<unsigned> queue{start};
  std::optional<std::pair<unsigned, Operation *>> closing;
  for (unsigned head = 0; head < queue.size() && !closing; ++head) {
    unsigned v = queue[head];
    for (const Edge &e : edges[v]) {
      if (component[e.callee] != component[start])
        continue;
      if (e.callee == start) {
        closing = {v, e.call};
        break;
      }
      if (parent.try_emplace(e.callee, v, e.call).second)
        queue.push_back(e.callee);
    }
  }
  if (!closing)
    return "";
  // The path start -> ... -> closing->first, then the closing edge.
  SmallVector<std::pair<unsigned, Operation *>> steps{
      {start, closing->second}};
  for (unsigned v = closing->first; v != start;) {
    auto [from, call] = parent.lookup(v);
    steps.push_back({v, call});
    v = from;
  }
  // steps: (callee, call op) from the end back; print forwards.
  std::string text = "@" + func.getSymName().str();
  for (auto it = steps.rbegin(); it != steps.rend(); ++it) {
    auto [callee, call] = *it;
    func::FuncOp target = funcs[callee];
    text += " -> ";
    if (getDirectCallee(cast<CallOpInterface>(call)) != target)
      text += "(" + call->getName().getStringRef().str() + ") ";
    text += "@" + target.getSymName().str();
  }
  return text;
}

SmallVector<func::FuncOp>
mlir::memsched::getFunctionsCalleesFirst(ModuleOp module) {
  return llvm::to_vector(ModuleCallGraph(module).getFunctionsCalleesFirst());
}
