from models import BankedSelfAttention


class ReferenceAttentionControl:
    """Copies the reference net's self-attention inputs into the denoiser's attention banks."""

    def __init__(self, reference_net, denoiser):
        writers = [m for m in reference_net.modules() if isinstance(m, BankedSelfAttention)]
        readers = [m for m in denoiser.modules() if isinstance(m, BankedSelfAttention)]
        self.pairs = list(zip(writers, readers))
        self.handles = [w.norm.register_forward_hook(self._writer(r)) for w, r in self.pairs]

    @staticmethod
    def _writer(reader):
        def hook(module, inputs, output):
            reader.bank.append(output)
        return hook

    def clear(self):
        for _, reader in self.pairs:
            reader.bank.clear()
