import torch
import torch.nn.functional as F


def token_logprobs(model, input_ids, attention_mask):
    logits = model(input_ids=input_ids, attention_mask=attention_mask).logits
    logits = logits[:, :-1].float()
    targets = input_ids[:, 1:]
    logp = F.log_softmax(logits, dim=-1)
    return logp.gather(-1, targets.unsqueeze(-1)).squeeze(-1)


def policy_gradient_loss(model, batch, scale):
    logp = token_logprobs(model, batch["input_ids"], batch["attention_mask"])
    mask = batch["response_mask"][:, 1:].float()
    ratio = torch.exp(logp - batch["old_logprobs"])
    clipped = torch.clamp(ratio, 0.8, 1.2)
    adv = batch["advantages"].unsqueeze(-1)
    per_token = -torch.min(ratio * adv, clipped * adv)
    loss = (per_token * mask).sum() / mask.sum().clamp(min=1.0)
    return loss * scale
