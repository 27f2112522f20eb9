import compat  # noqa: F401
import torch

import mlm_config
from adapt import DomainAdapter, build_model, set_trainable


def corpus(sched, vocab_size, generator):
    while True:
        yield torch.randint(4, vocab_size, (sched["batch_size"], sched["seq_len"]), generator=generator)


def main():
    torch.manual_seed(0)
    gen = torch.Generator().manual_seed(7)
    sched = mlm_config.SCHEDULE
    model = build_model(mlm_config.BERT)
    set_trainable(model, sched["train_encoder"])
    n_train = sum(p.numel() for p in model.parameters() if p.requires_grad)
    print(f"trainable parameters: {n_train}")
    adapter = DomainAdapter(model, sched)
    model.train()
    data = corpus(sched, mlm_config.BERT["vocab_size"], gen)
    for step in range(sched["steps"]):
        loss = adapter.step(next(data), gen)
        if step % 4 == 0:
            print(f"step {step}: mlm loss {loss:.4f}")
    return model


model = main()
