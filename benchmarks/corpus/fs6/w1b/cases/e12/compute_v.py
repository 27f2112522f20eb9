import torch
import torch.nn.functional as F

from nethook import edit_output, record_reference


def build_batch(tok_prompts, tok_target, pad_id):
    rows, lookup = [], []
    for p in tok_prompts:
        rows.append(p + tok_target[:-1])
        lookup.append(len(p) - 1)
    width = max(len(r) for r in rows)
    input_ids = torch.full((len(rows), width), pad_id, dtype=torch.long)
    mask = torch.zeros(len(rows), width, dtype=torch.long)
    for i, r in enumerate(rows):
        input_ids[i, :len(r)] = torch.tensor(r)
        mask[i, :len(r)] = 1
    return input_ids, mask, torch.tensor(lookup)


def compute_v(model, request, hparams):
    layer_name = hparams["mlp_module_tmp"].format(hparams["layer"])
    tok_prompts = request["prompts"]
    target = request["target_ids"]
    input_ids, mask, lookup = build_batch(tok_prompts, target, hparams["pad_id"])
    subject_idx = request["subject_idx"]

    print("Recording initial value of v*")
    kl_prompts = input_ids[-hparams["kl_prompts"]:]
    kl_mask = mask[-hparams["kl_prompts"]:]
    kl_lookup = lookup[-hparams["kl_prompts"]:]
    kl_distr_init = record_reference(model, kl_prompts, kl_mask, kl_lookup)

    delta = torch.zeros(model.config.n_embd, requires_grad=True)
    opt = torch.optim.Adam([delta], lr=hparams["v_lr"])

    def add_delta(output):
        output = output.clone()
        output[:, subject_idx] = output[:, subject_idx] + delta
        return output

    for it in range(hparams["v_num_grad_steps"]):
        opt.zero_grad()
        with edit_output(model, layer_name, add_delta):
            logits = model(input_ids=input_ids, attention_mask=mask).logits
        log_probs = torch.log_softmax(logits, dim=-1)
        tgt = torch.tensor(target)
        nll = 0.0
        for b, start in enumerate(lookup.tolist()):
            pos = torch.arange(start, start + len(target))
            nll = nll - log_probs[b, pos, tgt].mean()
        nll = nll / len(tok_prompts)

        rows = torch.arange(kl_prompts.size(0)) + (input_ids.size(0) - kl_prompts.size(0))
        kl_log_probs = log_probs[rows, kl_lookup]
        kl_loss = hparams["kl_factor"] * F.kl_div(
            kl_log_probs, kl_distr_init, reduction="batchmean")
        weight_decay = hparams["v_weight_decay"] * delta.norm() ** 2
        loss = nll + kl_loss + weight_decay
        print(f"  step {it}: loss {loss.item():.3f} (nll {nll.item():.3f})")
        loss.backward()
        opt.step()
        with torch.no_grad():
            max_norm = hparams["clamp_norm_factor"]
            if delta.norm() > max_norm:
                delta.mul_(max_norm / delta.norm())
    return delta.detach()
