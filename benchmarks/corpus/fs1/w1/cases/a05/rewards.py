import torch


def unigram_f1(candidates, references, pad_id=0, eos_id=1):
    scores = []
    for cand, ref in zip(candidates.tolist(), references.tolist()):
        cand = [t for t in cand if t not in (pad_id, eos_id)]
        ref = [t for t in ref if t not in (pad_id, eos_id)]
        if not cand or not ref:
            scores.append(0.0)
            continue
        overlap = sum(min(cand.count(t), ref.count(t)) for t in set(cand))
        p, r = overlap / len(cand), overlap / len(ref)
        scores.append(0.0 if overlap == 0 else 2 * p * r / (p + r))
    return torch.tensor(scores)
