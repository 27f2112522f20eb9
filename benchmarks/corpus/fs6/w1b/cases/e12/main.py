import compat  # noqa: F401
import torch
from transformers import GPT2Config, GPT2LMHeadModel

from compute_v import compute_v

HPARAMS = {
    "layer": 0,
    "mlp_module_tmp": "transformer.h.{}.mlp",
    "v_num_grad_steps": 5,
    "v_lr": 5e-1,
    "v_weight_decay": 1e-3,
    "clamp_norm_factor": 4.0,
    "kl_factor": 0.0625,
    "kl_prompts": 2,
    "pad_id": 0,
}


def make_request(vocab, g):
    subject = torch.randint(5, vocab, (3,), generator=g).tolist()
    prompts = []
    for n in (2, 4, 3):
        prefix = torch.randint(5, vocab, (n,), generator=g).tolist()
        prompts.append(prefix + subject + [7, 9])
    return {
        "prompts": prompts,
        "subject_idx": 4,
        "target_ids": torch.randint(5, vocab, (3,), generator=g).tolist(),
    }


def main():
    torch.manual_seed(0)
    g = torch.Generator().manual_seed(0)
    config = GPT2Config(vocab_size=128, n_positions=64, n_embd=32, n_layer=2, n_head=2,
                        bos_token_id=1, eos_token_id=2)
    model = GPT2LMHeadModel(config)
    model.eval()
    for p in model.parameters():
        p.requires_grad_(False)

    request = make_request(config.vocab_size, g)
    print("Executing ROME algorithm for the update")
    v = compute_v(model, request, HPARAMS)
    print("right vector norm", v.norm().item())


if __name__ == "__main__":
    main()
